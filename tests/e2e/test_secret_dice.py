"""Secret server rolls draw from a seed of their own: ending the dice epoch
publishes the public seed, from which nothing secret can be recomputed; the secret seed
is published once the last secret roll drawn from it is revealed, and then verify checks
those rolls too."""

from __future__ import annotations

import hashlib

from service.dice.fair import die_face
from tests.e2e.helpers import Client, combatant, command, create, inner_events

ATTACK = {"type": "generic.attack", "attacker": "grak", "target": "aria", "notation": "1d20"}


async def test_secret_rolls_stay_secret_when_the_public_seed_is_revealed(client: Client) -> None:
    eid = await create(client, "Two seeds")
    for who in ("aria", "grak"):
        await command(client, eid, combatant(who, 20, ac=10))
    committed = (await client.get(f"/encounters/{eid}/events")).json()["events"][1]["data"]
    assert (
        committed["secret_commitment"] and committed["secret_commitment"] != committed["commitment"]
    )
    public = await command(client, eid, ATTACK)
    secret_answer = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK, "hidden": True}
    )
    secret = inner_events(secret_answer.json()["events"])[0]["data"]["rolls"][0]
    # Both are the epoch's first die of their own seed.
    assert public["events"][0]["data"]["rolls"][0]["index"] == 0 and secret["index"] == 0

    ended = await client.post(f"/encounters/{eid}/dice/reveal", json={})
    assert ended.status_code == 200, ended.text
    revealed = ended.json()["events"][0]["data"]
    assert revealed["secret_seed"] is None  # a secret roll drawn from it is still hidden
    report = (await client.get(f"/encounters/{eid}/verify")).json()["dice"]
    epoch = report["epochs"][0]
    assert epoch["verified"] == 1 and epoch["secret_rolls"] == 1 and epoch["secret_verified"] == 0
    assert report["unverifiable_rolls"] == 1 and report["ok"] is True

    shown = await client.post(
        f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [secret["roll_id"]]}
    )
    assert shown.status_code == 200, shown.text
    secret_seed = shown.json()["events"][0]["data"]["secret_seeds"]["1"]
    assert hashlib.sha256(bytes.fromhex(secret_seed)).hexdigest() == committed["secret_commitment"]
    face = die_face(bytes.fromhex(secret_seed), committed["client_seed"], 0, 20)
    assert face == secret["dice"][0]["face"]
    report = (await client.get(f"/encounters/{eid}/verify")).json()["dice"]
    assert report["epochs"][0]["secret_verified"] == 1 and report["ok"] is True


async def test_the_epoch_publishes_its_secret_seed_when_nothing_of_it_is_hidden(
    client: Client,
) -> None:
    eid = await create(client, "No secrets left")
    for who in ("aria", "grak"):
        await command(client, eid, combatant(who, 20, ac=10))
    secret = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK, "hidden": True}
    )
    roll_id = inner_events(secret.json()["events"])[0]["data"]["rolls"][0]["roll_id"]
    await client.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [roll_id]})
    ended = await client.post(f"/encounters/{eid}/dice/reveal", json={})
    assert ended.json()["events"][0]["data"]["secret_seed"]
    report = (await client.get(f"/encounters/{eid}/verify")).json()["dice"]
    assert report["epochs"][0]["secret_verified"] == 1 and report["unverifiable_rolls"] == 0
