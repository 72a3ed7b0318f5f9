"""The ``RULESET`` wiring specific to generic; the contract every ruleset shares (tags,
Struct config, unions, option notes, examples, schemas, secrecy) is checked for all of
them in ``tests/unit/test_ruleset_conformance.py``."""

from __future__ import annotations

from service.rulesets.generic import RULESET, State


def test_the_ruleset_is_generic_with_its_state() -> None:
    assert RULESET.name == "generic" and RULESET.state_type is State
