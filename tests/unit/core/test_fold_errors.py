"""An event the fold cannot apply is named, not swallowed: the fold raises
EventNotFolded with its version, and the API answers it as a problem, logged and counted."""

from __future__ import annotations

import logging

import pytest

from api.http.problems import _not_folded
from service.core_events import EncounterCreated, SeedCommitted
from service.loading import EventNotFolded, fold_decoded
from service.rulesets.generic import RULESET
from service.rulesets.generic.events import CombatantAdded, Damaged

OPENING = (
    EncounterCreated(name="T", ruleset="generic", options={}),
    SeedCommitted(epoch=1, commitment="c", client_seed="s"),
)


def test_an_event_about_a_combatant_the_state_lacks_is_named_with_its_version() -> None:
    ogre = CombatantAdded(combatant="ogre", name="Ogre", hp=10, max_hp=10)
    events = [*OPENING, ogre, Damaged(target="troll", amount=3, hp_after=7)]
    with pytest.raises(EventNotFolded) as failed:
        fold_decoded(RULESET, None, range(1, 5), events)
    assert failed.value.version == 4 and failed.value.event_type == "Damaged"
    assert isinstance(failed.value.__cause__, KeyError)


def test_the_same_events_fold_when_the_combatant_is_there() -> None:
    ogre = CombatantAdded(combatant="ogre", name="Ogre", hp=10, max_hp=10)
    events = [*OPENING, ogre, Damaged(target="ogre", amount=3, hp_after=7)]
    folded = fold_decoded(RULESET, None, range(1, 5), events)
    assert folded is not None and folded.version == 4


def test_the_api_answers_it_as_a_problem_and_logs_it(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="aeon_ledger.api"):
        answered = _not_folded(EventNotFolded(4, "Damaged"))
    assert answered.status_code == 503
    assert answered.type_ is not None and answered.type_.endswith("/event-not-folded")
    assert answered.extra == {"version": 4}
    assert answered.detail is not None and "version 4 (Damaged)" in answered.detail
    assert "does not fold" in caplog.text
