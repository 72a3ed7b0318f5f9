"""Each side channel a hostile player used against secret rolls, tried again the way it
was made (docs/secrecy.md): two tables that differ only in a secret, read with a player
token, must give the player nothing to tell them apart.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from tests.e2e.helpers import Client, command
from tests.e2e.secrecy.tables import without_ids
from tests.support.chain import line_hash

ARIA = {"type": "generic.add_combatant", "id": "aria", "name": "Aria", "hp": 5, "stats": {"ac": 10},
        "attacks": {"sword": {"notation": "1d20+3", "damage": "1d8"}}}  # fmt: skip
GRAK = {"type": "generic.add_combatant", "id": "grak", "name": "Grak", "hp": 30,
        "stats": {"ac": 12}}  # fmt: skip
GRAK_ATTACKS = {"type": "generic.attack", "attacker": "grak", "target": "aria",
                "notation": "1d20+4", "damage": "1d6+2"}  # fmt: skip
SWORD = {"type": "generic.attack", "attacker": "aria", "target": "grak", "using": "sword"}


class Table:
    def __init__(self, client: Client, eid: str, player: str) -> None:
        self.client, self.eid = client, eid
        self.player = {"Authorization": f"Bearer {player}"}

    async def read(self, path: str = "") -> Any:
        response = await self.client.get(f"/encounters/{self.eid}{path}", headers=self.player)
        assert response.status_code == 200, response.text
        return response.json()

    async def hidden(self, cmd: dict[str, Any], dice: list[list[int]]) -> dict[str, Any]:
        response = await self.client.post(
            f"/encounters/{self.eid}/commands",
            json={"command": cmd, "manual_dice": dice, "hidden": True},
        )
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    async def as_player(self, cmd: dict[str, Any]) -> Any:
        return await self.client.post(
            f"/encounters/{self.eid}/commands", json={"command": cmd}, headers=self.player
        )


async def _table(client: Client, *, initiative: bool = False) -> Table:
    created = await client.post("/encounters", json={"ruleset": "generic", "name": "Oracles"})
    eid = created.json()["encounter_id"]
    await command(client, eid, ARIA)
    await command(client, eid, GRAK)
    if initiative:  # Aria first, then Grak
        await command(client, eid, {"type": "generic.roll_initiative"}, manual=[[18], [3]])
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    return Table(client, eid, minted.json()["token"])


async def test_a_player_cannot_brute_force_a_secret_from_its_hash(client: Client) -> None:
    """The attack: read the secret event's hash and everything but its data, then hash
    candidate data (faces, modifier, outcome) until one matches.  Now the hash covers
    only the public form, which the player reads whole, and the commitment binds the
    contents under a 256-bit salt the player does not have: the true contents, tried
    without the salt, do not match it, so no candidate can."""
    table = await _table(client)
    gm = await table.hidden(GRAK_ATTACKS, [[17], [4]])
    (envelope,) = gm["events"]
    page = await table.read(f"/events?after_version={envelope['stream_version'] - 1}")
    (seen,) = page["events"]
    assert "salt" not in seen["data"] and "events" not in seen["data"]
    recomputed = line_hash(seen["prev_hash"], table.eid, {**seen, "metadata": envelope["metadata"]})
    assert recomputed == seen["hash"]  # a function of what the player already reads
    truth = msgspec.json.Encoder(order="sorted").encode(envelope["data"]["events"])
    commitment = seen["data"]["commitment"]
    for guess in range(1, 21):  # even the true contents, without the salt
        candidate = truth.replace(b'"face":17', b'"face":%d' % guess)
        assert hashlib.sha256(candidate).hexdigest() != commitment


async def test_counters_versions_and_the_ledger_are_the_same_for_a_hit_and_a_miss(
    client: Client,
) -> None:
    """The attack: count what a secret command moved (dice counters, events, roll
    records) in a hit, which draws its damage die, and a miss, which leaves it unused."""
    hit, miss = await _table(client), await _table(client)
    await hit.hidden(GRAK_ATTACKS, [[19], [6]])
    await miss.hidden(GRAK_ATTACKS, [[1], [6]])
    for path in ("", "/events?after_version=0", "/rolls?after_version=0", "/log?after_version=0"):
        assert without_ids(await hit.read(path), hit.eid) == without_ids(
            await miss.read(path), miss.eid
        ), path
    state = (await hit.read())["state"]
    assert "next_secret_index" not in state["dice"] and state["dice"]["rolls_made"] == 0
    ledger = (await hit.read("/rolls?after_version=0"))["rolls"]
    assert [(r["roll_id"], r["roller"], r["redacted"]) for r in ledger] == [("s1", None, True)]
    # After the reveal the next public roll is r1 in both: public ids count public rolls.
    for table in (hit, miss):
        await client.post(f"/encounters/{table.eid}/rolls/reveal", json={"roll_ids": ["s1"]})
        done = await command(client, table.eid, {"type": "generic.check", "combatant": "grak",
                                                 "label": "Morale", "notation": "1d20"},
                                manual=[[10]])  # fmt: skip
        assert done["events"][0]["data"]["rolls"][0]["roll_id"] == "r1"


async def test_a_players_command_after_hidden_damage_is_held_in_both_worlds(
    client: Client,
) -> None:
    """The attack: after hidden damage to Aria, attack with her and read the refusal
    ("Aria is at 0 hit points and cannot attack") while her state still shows 5/5.  Now
    her command waits for the GM with the same words whatever the damage was."""
    downed, scratched = await _table(client), await _table(client)
    damage = {"type": "generic.damage", "target": "aria", "notation": "1d4+10"}
    await downed.hidden(damage, [[4]])
    await scratched.hidden({**damage, "notation": "1d4"}, [[1]])
    answers = []
    for table in (downed, scratched):
        response = await table.as_player(SWORD)
        assert response.status_code == 200, response.text
        (held,) = response.json()["events"]
        assert held["type"] == "encounter.request_made"
        assert "s1 is still hidden: the GM decides this one" in held["data"]["held_because"]
        answers.append(without_ids(response.json(), table.eid))
    # The damage notation is the GM's command, shown to nobody; the answers are equal.
    assert answers[0] == answers[1]
    assert (await downed.read())["state"]["game"] == (await scratched.read())["state"]["game"]


async def test_commands_held_while_a_secret_is_open_count_against_the_tokens_cap(
    client: Client,
) -> None:
    """The attack: flood the state with held commands while the GM keeps a roll secret
    (each held command is a request that waits in the state).  The token's cap of waiting
    requests holds for them as for requests asked for, and one more is a 409."""
    table = await _table(client)
    await table.hidden({"type": "generic.damage", "target": "aria", "notation": "1d4"}, [[2]])
    for _ in range(5):  # AEON_MAX_PENDING_REQUESTS's default
        response = await table.as_player(SWORD)
        assert response.status_code == 200, response.text
    refused = await table.as_player(SWORD)
    assert refused.status_code == 409, refused.text
    assert refused.json()["type"].endswith("too-many-requests-waiting")
    assert len((await table.read())["state"]["requests"]) == 5


async def test_the_turn_order_does_not_show_who_a_secret_downed(client: Client) -> None:
    """The attack: after a hidden attack on Aria, watch whether the GM's public
    next_turn skips her.  Now that next_turn is sealed until the attack is revealed."""
    down, up = await _table(client, initiative=True), await _table(client, initiative=True)
    await down.hidden(GRAK_ATTACKS, [[20], [6]])
    await up.hidden(GRAK_ATTACKS, [[1], [6]])
    for table in (down, up):
        turn = await command(client, table.eid, {"type": "generic.next_turn"})
        (sealed,) = turn["events"]
        assert sealed["type"] == "encounter.sealed"
        assert sealed["data"]["waits_for"] == ["s1"] and sealed["data"]["hidden"] is False
    for path in ("", "/events?after_version=0", "/log?after_version=0", "/rolls?after_version=0"):
        assert without_ids(await down.read(path), down.eid) == without_ids(
            await up.read(path), up.eid
        ), path
    log = (await down.read("/log?after_version=0"))["entries"]
    assert log[-1]["text"] == "The GM's generic.next_turn is sealed as s2 until s1 is revealed."
    # Revealing the attack opens both: the next turn too.
    await client.post(f"/encounters/{down.eid}/rolls/reveal", json={"roll_ids": ["s1"]})
    opened = (await down.read("/events?after_version=0"))["events"][-2:]
    assert all("salt" in e["data"] for e in opened if e["type"] == "encounter.sealed")


async def test_the_round_of_sealed_turns_does_not_show_who_a_secret_downed(
    client: Client,
) -> None:
    """The attack: after a hidden attack on Aria, let the GM's sealed turns go on and read
    the round each log line, roll record and round replay is filed under (where Aria is
    down her turns are skipped and a round more goes by).  Now players read every sealed
    line in the public round until the attack is revealed; the GM's page files each in
    the round it was played in, which is what the console's round stepper walks."""
    down, up = await _table(client, initiative=True), await _table(client, initiative=True)
    await down.hidden(GRAK_ATTACKS, [[20], [6]])
    await up.hidden(GRAK_ATTACKS, [[1], [6]])
    for table in (down, up):
        for _ in range(3):
            await command(client, table.eid, {"type": "generic.next_turn"})
        await command(client, table.eid, {"type": "generic.damage", "target": "grak", "amount": 1})
        # A note is public while the secret is open: it too reads in the public round.
        note = {"text": "The lights flicker."}
        assert (await client.post(f"/encounters/{table.eid}/notes", json=note)).is_success
    for path in ("/log?after_version=0", "/rolls?after_version=0", "/rounds/1"):
        assert without_ids(await down.read(path), down.eid) == without_ids(
            await up.read(path), up.eid
        ), path
    for table in (down, up):
        rounds = {e["round"] for e in (await table.read("/log?after_version=0"))["entries"]}
        assert rounds == {None, 1}
        replay = await client.get(f"/encounters/{table.eid}/rounds/2", headers=table.player)
        assert replay.status_code == 404, replay.text
    gm_log = (await client.get(f"/encounters/{down.eid}/log?after_version=7")).json()
    # three turns, the damage, the note
    assert [e["round"] for e in gm_log["entries"]] == [1, 2, 3, 3, 3]
    # Revealed, the lines are the GM's, in the rounds they were played in.
    await client.post(f"/encounters/{down.eid}/rolls/reveal", json={"roll_ids": ["s1"]})
    seen = (await down.read("/log?after_version=7"))["entries"]
    assert [e["round"] for e in seen] == [1, 2, 3, 3, 3, 3]  # and the reveal
    ledger = (await down.read("/rolls?after_version=0"))["rolls"]
    assert [r["round"] for r in ledger if r["version"] == 11] == [3]


async def test_a_player_cannot_count_the_gms_requests_through_correlation_ids(
    client: Client,
) -> None:
    """The attack: every answer carries an ``X-Correlation-ID`` the service drew; were it
    a count of the process's requests, a player subtracting the ids of two of their reads
    would learn how many requests the GM sent in between: a hidden attack that hits is
    sent twice (the GM is asked for the damage die), one that misses once.  Now the ids
    are a keyed hash of the count: they differ by no count."""
    hit, miss = await _table(client), await _table(client)
    for table, first_faces in ((hit, 19), (miss, 1)):
        before = await client.get(f"/encounters/{table.eid}", headers=table.player)
        body = {"command": GRAK_ATTACKS, "manual_dice": [[first_faces]], "hidden": True}
        sent = await client.post(f"/encounters/{table.eid}/commands", json=body)
        if sent.status_code == 422:  # the hit: the damage die asked for, and sent
            assert sent.json()["dice_needed"]["roll"] == 2, sent.text
            await table.hidden(GRAK_ATTACKS, [[first_faces], [4]])
        after = await client.get(f"/encounters/{table.eid}", headers=table.player)
        ids = [int(r.headers["x-correlation-id"], 16) for r in (before, after)]
        assert abs(ids[1] - ids[0]) > 2**64, ids  # not a count: 2 or 3 apart it was


async def test_a_fork_shows_its_own_seed_commitment(client: Client) -> None:
    """The attack: fork while a secret is open and read the fork's own dice commitment,
    which players were shown as "secret"."""
    table = await _table(client)
    await table.hidden(GRAK_ATTACKS, [[17], [4]])
    fork = await client.post(f"/encounters/{table.eid}/fork", json={})
    assert fork.status_code == 201, fork.text
    fid = fork.json()["encounter_id"]
    minted = await client.post(f"/encounters/{fid}/tokens", json={"combatants": ["aria"]})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    events = (await client.get(f"/encounters/{fid}/events", headers=player)).json()["events"]
    committed = next(e for e in events if e["stream_version"] == 2)
    assert committed["type"] == "dice.seed_committed"
    assert committed["data"]["commitment"] == fork.json()["dice_commitment"]


async def test_an_undo_takes_back_the_one_envelope_and_frees_the_table(client: Client) -> None:
    """Undo is not held back by a secret: it takes back the sealed command as one, and
    with it the hold on the players' commands."""
    table = await _table(client)
    gm = await table.hidden(GRAK_ATTACKS, [[17], [4]])
    undone = await client.post(f"/encounters/{table.eid}/undo", json={})
    assert undone.status_code == 200, undone.text
    (event,) = undone.json()["events"]
    span = event["data"]["commands"][0]
    assert span["first"] == span["last"] == gm["events"][0]["stream_version"]
    response = await table.as_player(SWORD)
    assert response.status_code == 200, response.text
    assert response.json()["events"][0]["type"] == "generic.attack_rolled"


async def test_a_player_cannot_brute_force_npc_hit_points_from_the_hash(client: Client) -> None:
    """The attack: under ``npc_health: hidden`` the player reads Grak's damage event
    without ``hp_after`` and hashes candidate values into it until one gives the event's
    hash.  Now the hash covers a salted commitment in place of the value: hashed the old
    way (the value in the data) no candidate matches, the true one included; hashed the
    new way every candidate gives the same hash, so none stands out; and the commitment,
    tried without the salt the player never reads, matches no candidate either."""
    created = await client.post(
        "/encounters", json={"ruleset": "generic", "name": "Hp oracle", "npc_health": "hidden"}
    )
    eid = created.json()["encounter_id"]
    await command(client, eid, ARIA)
    await command(client, eid, GRAK)
    await command(client, eid, {"type": "generic.damage", "target": "grak", "notation": "1d6"},
                  manual=[[4]])  # fmt: skip
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    table = Table(client, eid, minted.json()["token"])
    (hurt,) = [e for e in (await table.read("/events"))["events"] if e["type"] == "generic.damaged"]
    assert "hp_after" not in hurt["data"] and "health_salts" not in hurt["data"]
    truth = 26  # the GM's: 30 - 4

    def hashed(data: dict[str, Any]) -> str:
        return line_hash(hurt["prev_hash"], eid, {**hurt, "data": data})

    assert hashed(hurt["data"]) == hurt["hash"]  # the player recomputes the link
    old_style = {k: v for k, v in hurt["data"].items() if k != "health_commitments"}
    new_style = set()
    commitment = hurt["data"]["health_commitments"]["/hp_after"]
    canonical = msgspec.json.Encoder(order="sorted")
    for guess in range(truth - 1000, truth + 1000):
        assert hashed({**old_style, "hp_after": guess}) != hurt["hash"]
        new_style.add(hashed({**hurt["data"], "hp_after": guess}))
        assert hashlib.sha256(canonical.encode(guess)).hexdigest() != commitment
    assert new_style == {hurt["hash"]}
    gm = (await client.get(f"/encounters/{eid}/events")).json()["events"]
    assert next(e for e in gm if e["type"] == "generic.damaged")["data"]["hp_after"] == truth
