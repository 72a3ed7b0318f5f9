"""Secrecy over every registered ruleset and every read path (design sections 3 and 5).

A hidden GM command is made after a table is set; then, through each read path a player
or spectator has (a spectator token reads exactly what the player's reads), nothing it
decided may show until the GM reveals its rolls:

- the state (now, ``?at=N``, each step of the round replay, a fork's) is the state before
  the secret command, seen through the ruleset's player view;
- its events show only the fields the ruleset lists in ``shown_when_secret``, its rolls
  only that they happened, its metadata no idempotency key;
- its log lines (JSON and text, and the live stream) contain no face or total of its
  rolls, and are not the GM's lines.
After the reveal, players read the GM's lines.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from events.committed_health import SALTS, hashed_form
from service.registry import RULESETS, get_ruleset
from tests.e2e.helpers import Client
from tests.e2e.secrecy.scenarios import SCENARIOS
from tests.e2e.secrecy.tables import Table, mentions, play
from tests.scaleout.sse import parse

_PUBLIC_FORM = {"seal_id", "command_type", "shown", "hidden", "taints", "waits_for", "commitment"}
_NPC_HEALTH_INSIDE = {"aeonis", "tactics"}
"""Scenarios whose secret tells an NPC's health (a unit's HP, Vex's wounds)."""
_ROLL_KEYS = {"roll_id", "roller", "source", "hidden", "redacted", "version", "round",
              "undone"}  # fmt: skip


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(params=sorted(RULESETS))
async def table(request: pytest.FixtureRequest, client: Client) -> Table:
    name = request.param
    assert name in SCENARIOS, f"ruleset {name!r} has no secrecy scenario"
    return await play(client, name, SCENARIOS[name])


async def test_the_state_players_see_is_the_state_before_the_secret(table: Table) -> None:
    before = await table.get(f"?at={table.before}")
    now = await table.get("")
    assert now["version"] > before["version"]
    assert now["state"]["game"] == before["state"]["game"]
    head = now["version"]
    assert (await table.get(f"?at={head}"))["state"]["game"] == before["state"]["game"]
    gm = await table.get("", player=False)
    assert gm["state"]["secret_rolls"] == [table.seal_id, *(r["roll_id"] for r in table.rolls)]
    # Players see that the secret exists, never how many rolls or dice it made.
    assert now["state"]["secret_rolls"] == [table.seal_id]
    assert "next_secret_index" not in now["state"]["dice"]
    assert now["state"]["dice"]["rolls_made"] == before["state"]["dice"]["rolls_made"]


async def test_events_show_only_the_rulesets_whitelist(table: Table) -> None:
    ruleset = get_ruleset((await table.get("", player=False))["ruleset"])
    page = await table.get(f"/events?after_version={table.before}")
    # One envelope, whatever the command decided: its public form and nothing else.
    (seen,) = page["events"]
    assert seen["stream_version"] == table.secret_events[0]["stream_version"]
    assert seen["type"] == "encounter.sealed"
    assert set(seen["data"]) == _PUBLIC_FORM, seen
    shown = ruleset.shown_when_secret.get(table.inner[0]["type"], frozenset())
    assert set(seen["data"]["shown"]) <= shown - {"rolls"}
    assert "idempotency_key" not in seen["metadata"]


async def test_log_lines_and_the_ledger_say_nothing_the_roll_decided(table: Table) -> None:
    numbers = table.numbers()
    entries = (await table.get(f"/log?after_version={table.before}"))["entries"]
    gm_entries = (await table.get(f"/log?after_version={table.before}", player=False))["entries"]
    assert len(entries) == len(gm_entries) == 1
    for seen, gm in zip(entries, gm_entries, strict=True):
        assert seen["text"] != gm["text"]
        assert not mentions(seen["text"], numbers), seen["text"]
        # One marker record for the envelope, however many rolls it made.
        (marker,) = seen["rolls"]
        assert marker["roll_id"] == table.seal_id and marker["redacted"] is True
    text = await table.get(f"/log.txt?after_version={table.before}")
    assert not mentions(re.sub(r"^#\d+\s+\[[^]]*\]", "", text, flags=re.M), numbers), text
    ledger = (await table.get(f"/rolls?after_version={table.before}"))["rolls"]
    assert [r["roll_id"] for r in ledger] == [table.seal_id]
    assert all(set(r) <= _ROLL_KEYS for r in ledger)


async def test_the_statistics_and_the_markdown_log_count_nothing_of_the_secret(
    table: Table,
) -> None:
    """The damage meter and dice figures players read are those of the table before the
    secret command (its dice, hits and damage are outcomes too); the export, which carries
    the events unredacted, is the GM's alone."""
    before = await table.get(f"/stats?at={table.before}")
    now = await table.get("/stats")
    assert {k: v for k, v in now.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
    markdown = await table.get(f"/log.md?after_version={table.before}")
    body = re.sub(r"^- \*\*#\d+\*\*", "", markdown, flags=re.M)
    assert not mentions(re.sub(r"^## .*$", "", body, flags=re.M), table.numbers()), markdown
    export = await table.client.get(f"/encounters/{table.eid}/export", headers=bearer(table.player))
    assert export.status_code == 403


async def test_the_round_replay_steps_through_the_public_table(table: Table) -> None:
    gm_log = (await table.get("/log", player=False))["entries"]
    rounds = {e["round"] for e in gm_log if e["version"] > table.before and e["round"]}
    before = (await table.get(f"?at={table.before}"))["state"]
    numbers = table.numbers()
    for number in rounds:
        replay = await table.get(f"/rounds/{number}")
        for step in replay["steps"]:
            if step["version"] > table.before:
                assert step["state"]["game"] == before["game"]
                assert not mentions(step["text"], numbers)


async def test_the_live_stream_is_redacted_like_the_events(table: Table) -> None:
    head = (await table.get("", player=False))["version"]
    messages = []
    for reader in (table.player, table.spectator):
        response = await table.client.get(
            f"/encounters/{table.eid}/live?after_version={table.before}&until_version={head}",
            headers=bearer(reader),
        )
        assert response.status_code == 200
        messages += parse(response.text.splitlines())
    assert messages
    for message in messages:
        assert set(message.data["data"]) == _PUBLIC_FORM
        assert "idempotency_key" not in message.data["metadata"]


async def test_a_fork_keeps_the_origins_secrets(table: Table) -> None:
    before = (await table.get(f"?at={table.before}"))["state"]["game"]
    fork = await table.client.post(f"/encounters/{table.eid}/fork", json={})
    assert fork.status_code == 201, fork.text
    fid = fork.json()["encounter_id"]
    scenario_player = (await table.get("/tokens", player=False))["tokens"]
    bound = next(t["combatants"] for t in scenario_player if t["role"] == "player")
    minted = await table.client.post(f"/encounters/{fid}/tokens", json={"combatants": bound})
    player = bearer(minted.json()["token"])
    state = await table.client.get(f"/encounters/{fid}", headers=player)
    assert state.json()["state"]["game"] == before
    first = (await table.client.get(f"/encounters/{fid}/events", headers=player)).json()
    forked = first["events"][0]["data"]
    assert forked["secret"] is True and "public_game" not in forked
    gm_state = (await table.client.get(f"/encounters/{fid}")).json()["state"]
    assert gm_state["secret_rolls"] == [table.seal_id, *(r["roll_id"] for r in table.rolls)]


async def test_the_gms_key_replays_nothing_for_a_player(table: Table, client: Client) -> None:
    name = (await table.get("", player=False))["ruleset"]
    cmd, dice = SCENARIOS[name].secret
    replay = await client.post(
        f"/encounters/{table.eid}/commands",
        json={"command": cmd, "manual_dice": dice, "hidden": True},
        headers={**bearer(table.player), "Idempotency-Key": f"gm-secret-{table.eid}"},
    )
    assert replay.status_code == 403, replay.text
    assert "events" not in replay.json()


async def test_after_the_reveal_players_read_the_gms_lines(table: Table) -> None:
    ids = [table.seal_id]
    revealed = await table.client.post(
        f"/encounters/{table.eid}/rolls/reveal", json={"roll_ids": ids}
    )
    assert revealed.status_code == 200, revealed.text
    again = await table.client.post(f"/encounters/{table.eid}/rolls/reveal", json={"roll_ids": ids})
    assert again.status_code == 422
    last = table.secret_events[-1]["stream_version"]
    count = last - table.before
    page = f"/log?after_version={table.before}&limit={count}"
    seen = (await table.get(page))["entries"]
    gm = (await table.get(page, player=False))["entries"]
    # The GM's lines, but for the health of combatants players may not see (npc_health is
    # "descriptor" here): every face and total the GM's line tells, theirs tells too.
    assert len(seen) == len(gm)
    for mine, theirs in zip(seen, gm, strict=True):
        if mine["text"] != theirs["text"]:
            numbers = table.numbers()
            assert mentions(mine["text"], numbers) == mentions(theirs["text"], numbers)
            assert mine["type"] == theirs["type"]


async def test_a_player_checks_the_chain_while_sealed_and_the_commitment_after(
    table: Table,
) -> None:
    """The chain covers the envelope's public form, so it verifies for players while the
    secret is sealed; after the reveal they read the salt and the inner events and check
    them against the commitment themselves, also when the contents tell the health of a
    combatant they may not see: those fields are left out of their view, as on every
    path, and the commitment binds each inner event by its public form, health
    commitments in place of the values (docs/tamper-evidence.md)."""
    (sealed,) = (await table.get(f"/events?after_version={table.before}"))["events"]
    assert (await table.get("/verify"))["ok"] is True
    revealed = await table.client.post(
        f"/encounters/{table.eid}/rolls/reveal", json={"roll_ids": [table.seal_id]}
    )
    assert revealed.status_code == 200, revealed.text
    (opened,) = (await table.get(f"/events?after_version={table.before}&limit=1"))["events"]
    (gm,) = (await table.get(f"/events?after_version={table.before}&limit=1", player=False))[
        "events"
    ]
    assert opened["type"] == gm["type"]
    assert opened["hash"] == sealed["hash"] and opened["prev_hash"] == sealed["prev_hash"]
    public = {k: v for k, v in gm["data"].items() if k != "events"}
    assert {k: v for k, v in opened["data"].items() if k != "events"} == public
    without_salts = [
        {k: v for k, v in e["data"].items() if k != SALTS} for e in gm["data"]["events"]
    ]
    health_inside = [e["data"] for e in opened["data"]["events"]] != without_salts
    ruleset = (await table.get("", player=False))["ruleset"]
    assert health_inside is (ruleset in _NPC_HEALTH_INSIDE), opened["data"]["events"]
    data = opened["data"]
    assert len(bytes.fromhex(data["salt"])) >= 16
    public = [{**e, "data": hashed_form(e["data"])} for e in data["events"]]
    contents = json.dumps(public, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(bytes.fromhex(data["salt"]) + contents.encode()).hexdigest()
    assert digest == data["commitment"]
    assert (await table.get("/verify"))["ok"] is True
