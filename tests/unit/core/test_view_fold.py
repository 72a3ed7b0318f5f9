"""A reader's view that cannot fold an event says so: which view, which version, why."""

from __future__ import annotations

from uuid import uuid4

import pytest
from litestar.exceptions import HTTPException
from prometheus_client import REGISTRY

from api.http.problems import problem_details_config
from service.core_events import EncounterCreated, SeedCommitted
from service.encounter import evolve
from service.rulesets.generic import RULESET
from service.view_fold import ViewNotFoldable, evolve_in_view
from telemetry import metrics


def _started() -> object:
    enc = evolve(RULESET, None, EncounterCreated(name="T", ruleset="generic", options={}))
    return evolve(RULESET, enc, SeedCommitted(epoch=1, commitment="c", client_seed="s"))


def test_an_event_that_folds_folds_as_evolve_would() -> None:
    enc = _started()
    event = SeedCommitted(epoch=2, commitment="d", client_seed="t")
    folded = evolve_in_view(
        RULESET, enc, event, reverted=False, encounter_id=uuid4(), version=3, view="players"
    )
    assert folded == evolve(RULESET, enc, event)


def test_an_event_that_does_not_fold_is_an_error_naming_view_and_version() -> None:
    encounter_id = uuid4()
    with pytest.raises(ViewNotFoldable) as raised:
        # A stream must start with encounter.created: folding anything else first fails.
        evolve_in_view(
            RULESET,
            None,
            SeedCommitted(epoch=1, commitment="c", client_seed="s"),
            reverted=False,
            encounter_id=encounter_id,
            version=7,
            view="stats",
        )
    failure = raised.value
    assert (failure.encounter_id, failure.version, failure.view) == (encounter_id, 7, "stats")
    assert isinstance(failure.__cause__, ValueError)


def test_the_failure_is_answered_as_a_problem_and_counted() -> None:
    metrics.set_enabled(True)
    before = REGISTRY.get_sample_value("aeon_view_fold_failures_total", {"view": "players"}) or 0
    to_problem = problem_details_config().exception_to_problem_detail_map[ViewNotFoldable]
    answer = to_problem(ViewNotFoldable(uuid4(), 4, "generic.damaged", "players"))
    assert isinstance(answer, HTTPException)
    assert answer.status_code == 500
    assert "version 4" in answer.detail
    after = REGISTRY.get_sample_value("aeon_view_fold_failures_total", {"view": "players"})
    assert after == before + 1
