"""Old event versions are lifted to the current shape on read, never rewritten.

The generic ruleset has no second version of any event yet, so these tests give it one:
suppose `generic.damaged` v1 stored the hp as `hp` and had no `source`; v2 (the current
Struct) calls it `hp_after`.  A golden v1 sample must decode into today's event.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import pytest

from events.envelope import RecordedEvent
from events.upcasting import MissingUpcaster, Upcasters
from service.codec import EventCodec
from service.rulesets.generic import RULESET
from service.rulesets.generic.events import Damaged

GOLDEN_V1 = {"target": "grak", "amount": 4, "hp": 3}


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    lifted = {k: v for k, v in data.items() if k != "hp"}
    return {**lifted, "hp_after": data["hp"]}


def _recorded(type_version: int, data: dict[str, Any]) -> RecordedEvent:
    return RecordedEvent(
        global_position=1,
        stream_id=uuid4(),
        stream_version=7,
        type="generic.damaged",
        type_version=type_version,
        data=data,
        metadata={},
        recorded_at=datetime.now(UTC),
        prev_hash="0" * 64,
        hash="f" * 64,
    )


def test_a_golden_v1_event_decodes_as_the_current_struct() -> None:
    ruleset = dataclasses.replace(
        RULESET,
        event_versions={"generic.damaged": 2},
        upcasters={("generic.damaged", 1): _v1_to_v2},
    )
    codec = EventCodec(ruleset)
    event = codec.from_recorded(_recorded(1, GOLDEN_V1))
    assert event == Damaged(target="grak", amount=4, hp_after=3)
    # Current-version events pass through untouched, and new events are stamped v2.
    current = codec.from_recorded(_recorded(2, {"target": "grak", "amount": 4, "hp_after": 3}))
    assert current == event
    assert codec.to_new_event(event).type_version == 2


def test_upcasters_chain_and_name_a_missing_step() -> None:
    chain = Upcasters(
        {"x.e": 3},
        {("x.e", 1): lambda d: {**d, "b": 1}, ("x.e", 2): lambda d: {**d, "c": d["b"] + 1}},
    )
    assert chain.upcast("x.e", 1, {"a": 0}) == {"a": 0, "b": 1, "c": 2}
    assert chain.upcast("x.e", 3, {"a": 0}) == {"a": 0}
    assert chain.current_version("other") == 1
    with pytest.raises(MissingUpcaster, match=r"x.e v2 -> v3"):
        Upcasters({"x.e": 3}, {("x.e", 1): lambda d: d}).upcast("x.e", 1, {})
