"""Schemathesis against the service's own OpenAPI document, on a running service, with its
conformance checks on: no operation answers 5xx; every status, content type, header and
body an answer has is one the document declares; every request the document allows is
accepted (never a 400, 413, 415 or 422 for its shape); and requests it does not allow are
refused.  Path parameters name a real encounter (with its GM token), so reads return real
data to validate rather than 404s.

Operations are driven through schemathesis' Python API rather than its pytest plugin,
whose lazy fixture loader does not run on pytest 9 (it sets ``Node._nodeid``).
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.reliability.http import Table

EXAMPLES_PER_OPERATION = 15
CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
"""What a request the document allows may get.  A 422 is the rules of the game refusing
(no such combatant, not your turn, bad dice notation), which no schema can say; a
request's shape, when wrong, is a 400, and a 400 here fails."""


def _integral_floats_as_ints(value: Any) -> Any:
    """7.0 written as 7.  JSON Schema compares values, not how they are written, so for it
    7.0 is an integer; the service refuses it (strict input, docs/api.md), which no
    schema keyword can say.  A positive case sends integers as integers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral_floats_as_ints(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral_floats_as_ints(v) for k, v in value.items()}
    return value


def _valid(case: schemathesis.Case, location: ParameterLocation) -> bool:
    component = case.meta.components.get(location) if case.meta else None
    return component is None or component.mode.is_positive


def _exercise(operation: Any, live_url: str, table: Table, mode: GenerationMode) -> None:
    checks = [
        *CONFORMANCE,
        positive_data_acceptance if mode.is_positive else negative_data_rejection,
    ]

    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: schemathesis.Case) -> None:
        # The real encounter and its token replace what was generated, unless that part
        # of the request is the one made invalid (then it must be refused as it is).
        if "encounter_id" in (case.path_parameters or {}) and _valid(case, ParameterLocation.PATH):
            case.path_parameters["encounter_id"] = table.encounter_id
        if _valid(case, ParameterLocation.HEADER):
            case.headers = {**(case.headers or {}), **table.headers}
        if mode.is_positive and operation.path.endswith("/verify"):
            # A pinned head is `version` and `hash` together (half of one is a 400), which
            # OpenAPI cannot say of two query parameters: send both or neither.
            query = case.query or {}
            if ("version" in query) != ("hash" in query):
                query.pop("version", None)
                query.pop("hash", None)
        if mode.is_positive and isinstance(case.body, dict | list):
            case.body = _integral_floats_as_ints(case.body)
        if operation.path.endswith("/live"):
            # A live stream follows until closed: make every generated one end.
            case.query = {**(case.query or {}), "until_version": 1}
        case.call_and_validate(base_url=live_url, checks=checks)

    try:
        run()
    except Unsatisfiable:
        # Nothing in the operation can be made invalid (GET /rulesets takes nothing).
        assert not mode.is_positive


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_conforms_to_the_document(
    live_url: str, table: Table, mode: GenerationMode
) -> None:
    schema = schemathesis.openapi.from_url(f"{live_url}/schema/openapi.json")
    schema.config.checks.positive_data_acceptance.expected_statuses = ACCEPTED
    # Query parameters the service does not know are ignored, as HTTP services do (a
    # cache-busting `?_=123` stays harmless); every other deviation is refused.
    schema.config.generation.allow_extra_parameters = False
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 15
    for operation in operations:
        try:
            _exercise(operation, live_url, table, mode)
        except Exception as failure:
            failure.add_note(f"operation: {operation.method.upper()} {operation.path} ({mode})")
            raise
