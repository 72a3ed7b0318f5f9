"""The OpenAPI document says what a client generator and Swagger UI need: tokens per
operation, every error status as a problem document, header limits, unique schema names,
discriminated command unions with an example for every command."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from litestar._openapi.plugin import OpenAPIPlugin
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from service.registry import RULESETS
from service.ruleset import tag_of
from tests.e2e.helpers import Client


@pytest.fixture(scope="module")
async def document(client: Client) -> dict[str, Any]:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


async def test_the_document_is_built_on_its_first_request_not_at_start_up(
    database_url: str, document: dict[str, Any]
) -> None:
    """Building it costs about 1.5 s of CPU, which a start no longer pays; the first page
    asked for (Swagger UI, which embeds it) already shows the completed document."""
    app = create_app(Settings(database_url=database_url))
    plugin = app.plugins.get(OpenAPIPlugin)
    async with AsyncTestClient(app=app) as fresh:
        assert plugin._openapi_schema is None, "the start built the document"
        page = await fresh.get("/schema")
        assert page.status_code == 200
        assert plugin._openapi_schema is not None
        served = (await fresh.get("/schema/openapi.json")).json()
    assert '"encounterToken"' in page.text, "Swagger UI shows the completed document"
    assert served == document, "another app's document, built the same way"


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "responses" in operation
    ]


def test_bearer_schemes_are_declared_per_operation(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["encounterToken"] == {
        **schemes["encounterToken"],
        "type": "http",
        "scheme": "bearer",
    }
    assert schemes["serviceKey"]["scheme"] == "bearer"
    for path, method, operation in _operations(document):
        if path.startswith("/encounters/{encounter_id}"):
            assert operation["security"] == [{"encounterToken": []}], (method, path)
        elif path.startswith("/campaigns/{campaign_id}"):
            assert operation["security"] == [{"campaignToken": []}], (method, path)
            assert "403" in operation["responses"], (method, path)
        elif path in ("/encounters", "/campaigns", "/campaigns/import"):
            assert operation["security"] == [{"serviceKey": []}, {}], (method, path)
        elif path.startswith("/webhooks"):  # service-wide webhooks: the key alone
            assert operation["security"] == [{"serviceKey": []}], (method, path)
            assert "403" in operation["responses"], (method, path)
        else:
            assert "security" not in operation, (method, path)


def test_errors_are_documented_as_problems_where_they_can_happen(document: dict[str, Any]) -> None:
    command = document["paths"]["/encounters/{encounter_id}/commands"]["post"]["responses"]
    assert {"400", "401", "403", "404", "409", "413", "415", "422", "429", "503"} <= set(command)
    rulesets = document["paths"]["/rulesets/{name}"]["get"]["responses"]
    assert "404" in rulesets and "401" not in rulesets and "503" not in rulesets
    for path, method, operation in _operations(document):
        for status, response in operation["responses"].items():
            if status[0] in "45" and not (path == "/health/ready" and status == "503"):
                media = response["content"]["application/problem+json"]
                assert media["schema"] == {"$ref": "#/components/schemas/Problem"}, (path, status)
    problem = document["components"]["schemas"]["Problem"]
    assert {"errors", "current_version", "dice_needed", "rule"} <= set(problem["properties"])
    assert set(problem["required"]) == {"type", "title", "status", "detail"}
    assert "Retry-After" in command["503"]["headers"]
    assert "ETag" in command["409"]["headers"]


def test_every_command_is_a_named_member_of_a_discriminated_union(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    union = schemas["CommandBody"]["properties"]["command"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    tags = {tag_of(t) for r in RULESETS.values() for t in r.command_types}
    assert set(mapping) == tags
    examples = document["paths"]["/encounters/{encounter_id}/commands"]["post"]["requestBody"][
        "content"
    ]["application/json"]["examples"]
    assert set(examples) == tags
    for tag, ref in mapping.items():
        name = ref.rsplit("/", 1)[1]
        schema = schemas[name]
        assert schema["title"] == name
        assert schema["examples"][0]["type"] == tag
        assert examples[tag]["value"]["command"]["type"] == tag
        assert schema["additionalProperties"] is False
    assert mapping["generic.attack"].endswith("/GenericAttack")
    assert mapping["aeonisk.resolve"].endswith("/AeoniskResolve")


def test_every_schema_has_a_unique_title(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    titles = Counter(schema.get("title") for schema in schemas.values())
    assert not [t for t, n in titles.items() if n > 1 or t is None]
    assert all(schema["title"] == name for name, schema in schemas.items())


def test_headers_the_service_reads_carry_their_limits(document: dict[str, Any]) -> None:
    parameters = {
        p["name"]: p["schema"]
        for _, _, operation in _operations(document)
        for p in operation.get("parameters", [])
        if p["in"] == "header"
    }
    assert {"If-Match", "Idempotency-Key", "X-Correlation-ID", "Last-Event-ID"} <= set(parameters)
    if_match = re.compile(parameters["If-Match"]["pattern"])
    assert all(if_match.match(v) for v in ('"7"', "7", "*", 'W/"12"'))
    assert not if_match.match('"²"')
    key = re.compile(parameters["Idempotency-Key"]["pattern"])
    assert key.match("k" * 200) and not key.match("k" * 201) and not key.match(" padded ")
    assert re.compile(parameters["Last-Event-ID"]["pattern"]).match("12")


def test_manual_dice_keep_their_bounds(document: dict[str, Any]) -> None:
    """Constraints inside a list inside an optional value reach the document."""
    manual = document["components"]["schemas"]["CommandBody"]["properties"]["manual_dice"]
    lists = next(alt for alt in manual["anyOf"] if alt.get("type") == "array")
    assert lists["maxItems"] == 100
    assert lists["items"]["items"] == {"type": "integer", "minimum": 1, "maximum": 10_000}


def test_a_body_named_like_a_write_command_keeps_its_bounds(document: dict[str, Any]) -> None:
    """The API's RevealRolls body shares its name with the write path's command; the
    document still states the body's own constraints on each roll id."""
    roll_ids = document["components"]["schemas"]["RevealRolls"]["properties"]["roll_ids"]
    assert (roll_ids["minItems"], roll_ids["maxItems"]) == (1, 100)
    assert (roll_ids["items"]["minLength"], roll_ids["items"]["maxLength"]) == (1, 50)


def test_a_mapping_of_schemas_names_the_keys_the_service_accepts(document: dict[str, Any]) -> None:
    """A sheet's attacks map names to another schema; the service refuses an empty name,
    and the document says so (a fuzzer that read it sent ``{"": ...}``)."""
    attacks = document["components"]["schemas"]["GenericAddCombatant"]["properties"]["attacks"]
    assert attacks["additionalProperties"] == {"$ref": "#/components/schemas/SheetAttack"}
    assert attacks["propertyNames"] == {"minLength": 1, "maxLength": 200}
