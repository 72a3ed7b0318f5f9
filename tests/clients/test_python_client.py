"""A Python client generated from the service's OpenAPI document by openapi-python-client
plays a short encounter against the running service: every schema generates (none is
dropped), the command union is typed, and errors come back as typed problem documents."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

GENERATOR = Path(sys.executable).parent / "openapi-python-client"
PACKAGE = "aeon_ledger_client"


@pytest.fixture(scope="module")
def generated(openapi_file: Path, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    out = tmp_path_factory.mktemp("python-client")
    # No formatting of the generated code: ruff is a dev tool, not installed with the tests.
    config = out / "config.json"
    # The archive (GET /export, JSON Lines) is bytes to a client: the generator's documented
    # override for a media type it has no parser for.
    overrides = {"application/jsonl": "application/octet-stream"}
    config.write_text(
        json.dumps({"post_hooks": [], "content_type_overrides": overrides}), encoding="utf-8"
    )
    run = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(openapi_file),
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # The generator warns, and leaves out what it cannot type, when a schema or a union
    # does not generate; none may.
    said = run.stdout + run.stderr
    assert "Warning" not in said and "WARNING" not in said and "Unable to" not in said, said
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))


def _module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_a_generated_python_client_plays_an_encounter(generated: ModuleType, live_url: str) -> None:
    models = _module("models")
    create_encounter = _module("api.default.create_encounter")
    post_command = _module("api.commands.post_command")
    get_encounter = _module("api.encounters.get_encounter")
    get_log = _module("api.reads.get_log")

    anonymous = generated.Client(base_url=live_url, raise_on_unexpected_status=True)
    created = create_encounter.sync(
        client=anonymous, body=models.CreateEncounter(ruleset="generic", name="Generated client")
    )
    assert isinstance(created, models.CreatedEncounter), created
    gm = generated.AuthenticatedClient(base_url=live_url, token=created.gm_token)
    encounter_id = created.encounter_id

    def command(cmd: Any, **extra: Any) -> Any:
        return post_command.sync_detailed(
            encounter_id, client=gm, body=models.CommandBody(command=cmd, **extra)
        )

    stats = models.GenericAddCombatantStats.from_dict({"ac": 12})
    for ident, hp in (("aria", 20), ("grak", 15)):
        added = command(
            models.GenericAddCombatant(
                id=ident, name=ident.title(), hp=hp, stats=stats, type_="generic.add_combatant"
            )
        )
        assert added.status_code == 200, added.content
        assert isinstance(added.parsed, models.CommandResult)
    assert command(models.GenericRollInitiative(type_="generic.roll_initiative")).status_code == 200

    # A hit for 7 with the GM's own dice: 16 + 5 against AC 12, then 4 + 3 damage.
    attack = models.GenericAttack(
        attacker="aria", target="grak", notation="1d20+5", damage="1d8+3", type_="generic.attack"
    )
    hit = command(attack, manual_dice=[[16], [4]])
    assert hit.status_code == 200, hit.content
    assert hit.parsed.version >= 5
    etag = hit.headers["etag"]

    state = get_encounter.sync_detailed(encounter_id, client=gm)
    assert state.status_code == 200
    assert state.parsed.version == hit.parsed.version
    assert state.headers["etag"] == etag
    grak = state.parsed.state["game"]["combatants"]["grak"]
    assert grak["hp"] == 15 - 7, grak

    log = get_log.sync_detailed(encounter_id, client=gm)
    assert log.status_code == 200, log.content
    assert any("Grak" in entry.text for entry in log.parsed.entries)

    # A stale If-Match: the typed problem document says where the encounter is.
    stale = post_command.sync_detailed(
        encounter_id,
        client=gm,
        body=models.CommandBody(command=models.GenericNextTurn(type_="generic.next_turn")),
        if_match='"1"',
    )
    assert stale.status_code == 409
    assert isinstance(stale.parsed, models.Problem)
    assert stale.parsed.current_version == hit.parsed.version

    # A rule refusing: a 422 problem naming why.
    refused = command(
        models.GenericAttack(
            attacker="aria", target="nobody", notation="1d20", type_="generic.attack"
        )
    )
    assert refused.status_code == 422
    assert isinstance(refused.parsed, models.Problem)
    assert "nobody" in refused.parsed.detail

    # Without the token: 401, typed too.
    denied = get_encounter.sync_detailed(encounter_id, client=anonymous)
    assert denied.status_code == 401
    assert isinstance(denied.parsed, models.Problem)
