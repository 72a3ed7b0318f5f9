"""Traces: off by default; with ``OTEL_*`` asking for them, a command's request
span holds the service's decide, write and fan-out spans and asyncpg's statements."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import AsyncTestClient
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from api.app import create_app
from api.settings import Settings
from telemetry import tracing
from tests.e2e.helpers import combatant


def test_the_environment_decides() -> None:
    assert not tracing.requested({})
    assert tracing.requested({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    assert tracing.requested({"OTEL_TRACES_EXPORTER": "otlp"})
    assert not tracing.requested({"OTEL_TRACES_EXPORTER": "none"})
    assert not tracing.requested(
        {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"}
    )


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "console")
    tracing.start(exporter, batch=False)
    try:
        yield exporter
    finally:
        tracing.stop()


async def test_off_by_default_no_span_is_made(database_url: str) -> None:
    assert tracing.plugins() == []
    with tracing.span("aeon.decide") as nothing:
        assert nothing is None


async def test_a_command_is_traced_from_request_to_statement(
    database_url: str, spans: InMemorySpanExporter
) -> None:
    app = create_app(Settings(database_url=database_url))
    async with AsyncTestClient(app=app) as http:
        created = await http.post("/encounters", json={"ruleset": "generic", "name": "Traced"})
        eid, token = created.json()["encounter_id"], created.json()["gm_token"]
        spans.clear()
        response = await http.post(
            f"/encounters/{eid}/commands",
            json={"command": combatant("aria", 9)},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200
    finished = spans.get_finished_spans()
    names = [s.name for s in finished]
    for ours in ("aeon.decide", "aeon.write", "aeon.fan_out"):
        assert ours in names, names
    decide = next(s for s in finished if s.name == "aeon.decide")
    assert decide.attributes is not None
    assert decide.attributes["command_type"] == "generic.add_combatant"
    server = [s for s in finished if s.name.startswith("POST /encounters")]
    assert server, names
    trace_id = server[0].context.trace_id
    statements = [s for s in finished if s.attributes and "db.system" in s.attributes]
    assert statements, names
    # One trace: the service's spans and the command's statements sit under the request's
    # (background work, such as webhook lanes polling, makes traces of its own).
    assert decide.context.trace_id == trace_id
    in_request = [s for s in statements if s.context.trace_id == trace_id]
    assert any(
        "INSERT INTO events" in str(s.attributes.get("db.statement", "")) for s in in_request
    ), [s.attributes for s in in_request]
