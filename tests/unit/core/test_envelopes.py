"""What unopened envelopes wait for (service/envelopes.py), against the rule it stands
for: an envelope waits for every id of its event's ``waits_for`` not revealed yet, and
opens when none is left.  The fold keeps most envelopes as a flag read off
``open_seals``; hypothesis plays sealing, reveals and envelopes whose list the fold
cannot read off (refolded after an undo) and compares every envelope with the rule."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.core_events import EncounterCreated, RollsRevealed, Sealed
from service.encounter import Encounter, evolve
from service.envelopes import waits_of
from service.registry import get_ruleset
from service.sealing import opened_by

RULESET = get_ruleset("generic")

Step = tuple[str, Any]
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("secret"), st.booleans()),  # a secret command; True: it taints
        st.tuples(st.just("sealed"), st.none()),  # a GM command sealed by open secrets
        st.tuples(st.just("undone"), st.none()),  # a secret the writer saw, undone since
        st.tuples(st.just("reveal"), st.lists(st.integers(0, 30), max_size=3)),
    ),
    max_size=40,
)


def _envelope(seal_id: str, hidden: bool, taints: bool, waits: tuple[str, ...]) -> Sealed:
    return Sealed(
        seal_id=seal_id,
        command_type="generic.damage",
        hidden=hidden,
        taints=taints,
        waits_for=waits,
        commitment="",
        salt="",
        events=(),
    )


def _play(steps: list[Step]) -> tuple[Encounter[Any], dict[str, set[str]]]:
    """The encounter after ``steps``, and what each envelope still waits for by the rule
    (its event's list less what was revealed); the writer's open secrets include those
    the fold takes as undone, so envelopes sealed after one carry a list the fold's
    ``open_seals`` does not have."""
    enc = evolve(RULESET, None, EncounterCreated(name="t", ruleset="generic", options={}))
    written: list[str] = []  # the open secrets as the writer saw them
    expected: dict[str, set[str]] = {}
    for kind, arg in steps:
        if kind == "reveal":
            hidden = [s for s in written if s in expected and s in expected[s]]
            asked = tuple(dict.fromkeys(hidden[i % len(hidden)] for i in arg)) if hidden else ()
            shown = opened_by(enc, asked)
            assert shown is not None
            enc = evolve(RULESET, enc, RollsRevealed(roll_ids=shown))
            expected = {s: w - set(shown) for s, w in expected.items()}
            expected = {s: w for s, w in expected.items() if w}
            written = [s for s in written if s not in shown]
            continue
        if kind == "sealed" and not written:
            continue
        seal_id = f"s{enc.seals_made + 1}"
        hidden = kind != "sealed"
        waits = ((seal_id,) if hidden else ()) + tuple(written)
        taints = kind == "undone" or (kind == "secret" and arg)
        event = _envelope(seal_id, hidden, taints, waits)
        enc = evolve(RULESET, enc, event, reverted=kind == "undone")
        expected[seal_id] = set(waits)
        if taints:
            written.append(seal_id)
    return enc, expected


@settings(max_examples=300, deadline=None)
@given(STEPS)
def test_every_envelope_waits_for_what_its_list_has_not_had_revealed(steps: list[Step]) -> None:
    enc, expected = _play(steps)
    assert set(enc.sealed) == set(expected)
    for seal_id, seal in enc.sealed.items():
        assert set(waits_of(seal_id, seal, enc.open_seals)) == expected[seal_id], seal_id


def test_a_table_with_many_open_secrets_keeps_a_flag_per_envelope() -> None:
    """A hundred secrets left open: each envelope is a flag, not a list of the others."""
    enc, expected = _play([("secret", True)] * 100)
    assert all(seal.waits_for is None and seal.own for seal in enc.sealed.values())
    assert len(waits_of("s100", enc.sealed["s100"], enc.open_seals)) == 100 == len(expected["s100"])
