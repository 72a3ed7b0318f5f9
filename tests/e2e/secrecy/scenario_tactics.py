"""The secrecy suite's scenario for this ruleset (see scenarios.py): to be written."""

from __future__ import annotations

from tests.e2e.secrecy.scenarios import Scenario

SCENARIO = Scenario(options={}, setup=[], player=[], secret=({}, []))
