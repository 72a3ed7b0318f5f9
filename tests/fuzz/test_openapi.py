"""Schemathesis against the service's own OpenAPI document, on a running service: no
operation answers 5xx to generated input, and every response matches the schema and the
content type the document declares for it.  Path parameters name a real encounter (with
its GM token), so reads return real data to validate rather than 404s.

Operations are driven through schemathesis' Python API rather than its pytest plugin,
whose lazy fixture loader does not run on pytest 9 (it sets ``Node._nodeid``).
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.reliability.http import Table

EXAMPLES_PER_OPERATION = 15
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


def _exercise(operation: Any, live_url: str, table: Table) -> None:
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def run(case: schemathesis.Case) -> None:
        if "encounter_id" in (case.path_parameters or {}):
            case.path_parameters["encounter_id"] = table.encounter_id
        case.headers = {**(case.headers or {}), **table.headers}
        if operation.path.endswith("/live"):
            # A live stream follows until closed: make every generated one end.
            case.query = {"until_version": 1, **(case.query or {})}
        case.call_and_validate(base_url=live_url, checks=CHECKS)

    run()


def test_every_operation_answers_without_5xx_and_as_documented(live_url: str, table: Table) -> None:
    schema = schemathesis.openapi.from_url(f"{live_url}/schema/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 15
    for operation in operations:
        try:
            _exercise(operation, live_url, table)
        except Exception as failure:
            failure.add_note(f"operation: {operation.method.upper()} {operation.path}")
            raise
