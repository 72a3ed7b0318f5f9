"""Undo, redo, time travel, round replay and fork over HTTP (design section 4)."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, combatant, command, create

SWING = {
    "type": "generic.attack",
    "attacker": "alice",
    "target": "orc",
    "notation": "1d20+5",
    "damage": "1d8+2",
}


async def _two_rounds(client: Client) -> tuple[str, dict[str, Any]]:
    """Alice and an orc fight two rounds; returns the id and round 2's attack result."""
    eid = await create(client, "Undo table")
    await command(client, eid, combatant("alice", 20, ac=14))
    await command(client, eid, combatant("orc", 30, ac=13))
    await command(client, eid, {"type": "generic.roll_initiative"}, manual=[[15], [5]])
    await command(client, eid, SWING, manual=[[12], [4]])  # round 1: 17 vs 13, 6 damage
    await command(client, eid, {"type": "generic.next_turn"})
    await command(client, eid, {"type": "generic.next_turn"})  # round 2 begins
    attack = await command(client, eid, SWING)  # round 2: a server roll
    return eid, attack


async def _state(client: Client, eid: str, **params: Any) -> dict[str, Any]:
    response = await client.get(f"/encounters/{eid}", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_undo_the_second_rounds_attack_and_reroll_it(client: Client) -> None:
    eid, attack = await _two_rounds(client)
    attack_version = attack["version"]
    first_version = attack["events"][0]["stream_version"]
    first_roll = attack["events"][0]["data"]["rolls"][0]
    before_attack = await _state(client, eid, at=first_version - 1)

    undo = await client.post(f"/encounters/{eid}/undo", json={"reason": "wrong target"})
    assert undo.status_code == 200, undo.text
    assert undo.headers["etag"] == f'"{attack_version + 1}"'
    undone = undo.json()["events"][0]
    assert undone["type"] == "history.undone"
    assert undone["data"]["commands"] == [
        {"first": first_version, "last": attack_version, "command_type": "generic.attack"}
    ]
    now = await _state(client, eid)
    assert now["state"]["game"] == before_attack["state"]["game"]

    reroll = await command(client, eid, SWING)
    second_roll = reroll["events"][0]["data"]["rolls"][0]
    assert second_roll["roll_id"] != first_roll["roll_id"]
    assert second_roll["index"] > first_roll["index"]  # a new die, never a replay

    log = (await client.get(f"/encounters/{eid}/log")).json()["entries"]
    by_version = {e["version"]: e for e in log}
    for version in range(first_version, attack_version + 1):
        assert by_version[version]["undone"]["undo_version"] == attack_version + 1
        assert by_version[version]["undone"]["by"]["role"] == "gm"
    assert by_version[attack_version + 2]["undone"] is None
    assert "wrong target" in by_version[attack_version + 1]["text"]
    text = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert f"[undone at #{attack_version + 1}]" in text

    rolls = (await client.get(f"/encounters/{eid}/rolls")).json()["rolls"]
    by_id = {r["roll_id"]: r for r in rolls}
    assert by_id[first_roll["roll_id"]]["undone"]["undo_version"] == attack_version + 1
    assert by_id[second_roll["roll_id"]]["undone"] is None

    verify = (await client.get(f"/encounters/{eid}/verify")).json()
    assert verify["ok"], verify


async def test_redo_restores_the_same_events_and_dice(client: Client) -> None:
    eid, attack = await _two_rounds(client)
    with_attack = await _state(client, eid)
    await client.post(f"/encounters/{eid}/undo")
    redo = await client.post(f"/encounters/{eid}/redo")
    assert redo.status_code == 200, redo.text
    assert redo.json()["events"][0]["data"]["undo_version"] == attack["version"] + 1
    after = await _state(client, eid)
    assert after["state"]["game"] == with_attack["state"]["game"]
    log = (await client.get(f"/encounters/{eid}/log")).json()["entries"]
    assert next(e for e in log if e["version"] == attack["version"])["undone"] is None


async def test_undo_of_an_undo_is_a_redo(client: Client) -> None:
    eid, _attack = await _two_rounds(client)
    with_attack = await _state(client, eid)
    await client.post(f"/encounters/{eid}/undo")
    again = await client.post(f"/encounters/{eid}/undo")
    assert again.json()["events"][0]["type"] == "history.redone"
    assert (await _state(client, eid))["state"]["game"] == with_attack["state"]["game"]


async def test_redo_after_a_new_command_is_a_conflict(client: Client) -> None:
    eid, _attack = await _two_rounds(client)
    await client.post(f"/encounters/{eid}/undo")
    await command(client, eid, SWING)
    redo = await client.post(f"/encounters/{eid}/redo")
    assert redo.status_code == 409
    problem = redo.json()
    assert problem["type"].endswith("/nothing-to-redo")
    assert "generic.attack" in problem["detail"] and "came in after the undo" in problem["detail"]

    fresh = await create(client, "Nothing undone")
    nothing = await client.post(f"/encounters/{fresh}/redo")
    assert nothing.status_code == 409
    assert "no command has been undone" in nothing.json()["detail"]


async def test_undo_past_the_start_is_refused(client: Client) -> None:
    eid = await create(client, "Empty")
    versions = (await _state(client, eid))["version"]
    nothing = await client.post(f"/encounters/{eid}/undo")
    assert nothing.status_code == 422
    assert "nothing to undo" in nothing.json()["detail"]
    await command(client, eid, combatant("alice", 10))
    too_far = await client.post(f"/encounters/{eid}/undo", json={"steps": 2})
    assert too_far.status_code == 422
    assert "past the start" in too_far.json()["detail"]
    before_start = await client.post(f"/encounters/{eid}/undo", json={"to_version": 1})
    assert before_start.status_code == 422
    assert "past the start" in before_start.json()["detail"]
    assert (await _state(client, eid))["version"] == versions + 1  # nothing was appended


async def test_undo_to_a_version_and_in_steps(client: Client) -> None:
    eid = await create(client, "Steps")
    setup = await command(client, eid, combatant("alice", 10))
    base = await _state(client, eid)
    for hp in (11, 12, 13):
        await command(client, eid, combatant(f"x{hp}", hp))
    two = await client.post(f"/encounters/{eid}/undo", json={"steps": 2})
    assert len(two.json()["events"][0]["data"]["commands"]) == 2
    assert set((await _state(client, eid))["state"]["game"]["combatants"]) == {"alice", "x11"}
    back = await client.post(f"/encounters/{eid}/undo", json={"to_version": setup["version"]})
    assert back.status_code == 200, back.text
    assert (await _state(client, eid))["state"]["game"] == base["state"]["game"]


async def test_undo_refuses_to_split_a_command(client: Client) -> None:
    eid, _attack = await _two_rounds(client)
    events = (await client.get(f"/encounters/{eid}/events")).json()["events"]
    # roll_initiative appended several events under one command: undoing into it is refused.
    init = [
        e["stream_version"]
        for e in events
        if e["metadata"].get("command_type") == ("generic.roll_initiative")
    ]
    assert len(init) > 1
    split = await client.post(f"/encounters/{eid}/undo", json={"to_version": init[0]})
    assert split.status_code == 422
    assert "in the middle of generic.roll_initiative" in split.json()["detail"]


async def test_undo_honours_if_match_and_idempotency_key(client: Client) -> None:
    eid, attack = await _two_rounds(client)
    stale = await client.post(
        f"/encounters/{eid}/undo", headers={"If-Match": f'"{attack["version"] - 1}"'}
    )
    assert stale.status_code == 409
    assert stale.json()["current_version"] == attack["version"]
    headers = {"If-Match": f'"{attack["version"]}"', "Idempotency-Key": "undo-once"}
    first = await client.post(f"/encounters/{eid}/undo", headers=headers)
    replay = await client.post(f"/encounters/{eid}/undo", headers=headers)
    assert first.status_code == replay.status_code == 200
    assert first.content == replay.content
    assert (await _state(client, eid))["version"] == attack["version"] + 1


async def test_time_travel_on_every_read_model(client: Client) -> None:
    eid, attack = await _two_rounds(client)
    at = attack["events"][0]["stream_version"] - 1
    await client.post(f"/encounters/{eid}/undo")
    past = await _state(client, eid, at=attack["version"])
    assert past["version"] == attack["version"]
    orc_then = past["state"]["game"]["combatants"]["orc"]["hp"]
    assert (
        orc_then <= (await _state(client, eid, at=at))["state"]["game"]["combatants"]["orc"]["hp"]
    )
    log = (await client.get(f"/encounters/{eid}/log", params={"at": attack["version"]})).json()
    assert log["entries"][-1]["version"] == attack["version"]
    assert log["entries"][-1]["undone"] is None  # not yet undone as of that version
    rolls = (await client.get(f"/encounters/{eid}/rolls", params={"at": at})).json()["rolls"]
    assert all(r["version"] <= at for r in rolls)
    events = (await client.get(f"/encounters/{eid}/events", params={"at": at})).json()
    assert events["events"][-1]["stream_version"] == at
    future = await client.get(f"/encounters/{eid}", params={"at": 10_000})
    assert future.status_code == 404
    assert future.json()["current_version"] == attack["version"] + 1


async def test_round_replay_steps_through_a_round(client: Client) -> None:
    eid, attack = await _two_rounds(client)
    await client.post(f"/encounters/{eid}/undo")
    await command(client, eid, SWING, manual=[[2]])  # the re-roll misses
    replay = await client.get(f"/encounters/{eid}/rounds/2")
    assert replay.status_code == 200, replay.text
    steps = replay.json()["steps"]
    versions = [s["version"] for s in steps]
    assert versions == sorted(versions) and attack["version"] in versions
    undone = next(s for s in steps if s["version"] == attack["version"])
    assert undone["undone"] is not None
    first = attack["events"][0]["stream_version"]
    before = next(s for s in steps if s["version"] == first - 1)
    assert undone["state"]["game"] == before["state"]["game"]  # it changed nothing
    assert steps[-1]["state"] == (await _state(client, eid))["state"]
    assert [d["face"] for d in steps[-1]["rolls"][0]["dice"]] == [2]
    one = (await client.get(f"/encounters/{eid}/rounds/1")).json()["steps"]
    assert one and all(s["version"] < versions[0] for s in one)
    missing = await client.get(f"/encounters/{eid}/rounds/9")
    assert missing.status_code == 404


async def test_fork_continues_independently(client: Client) -> None:
    eid, attack = await _two_rounds(client)
    origin_events = (await client.get(f"/encounters/{eid}/events")).json()["events"]
    at = attack["events"][0]["stream_version"] - 1
    response = await client.post(f"/encounters/{eid}/fork", json={"at_version": at})
    assert response.status_code == 201, response.text
    fork = response.json()
    assert fork["forked_from"] == {"encounter_id": eid, "version": at}
    assert fork["dice_commitment"] != (await _state(client, eid))["state"]["dice"]["commitment"]
    fid = fork["encounter_id"]
    forked = await _state(client, fid)
    assert forked["state"]["game"] == (await _state(client, eid, at=at))["state"]["game"]

    orc_at_fork = forked["state"]["game"]["combatants"]["orc"]["hp"]
    other = await command(client, fid, {**SWING, "damage": "1d4"}, manual=[[20], [4]])
    assert other["events"][0]["stream_version"] == 3
    assert (await _state(client, fid))["state"]["game"]["combatants"]["orc"]["hp"] == (
        orc_at_fork - 4
    )
    assert (await client.get(f"/encounters/{eid}/events")).json()["events"] == origin_events
    assert (await client.get(f"/encounters/{fid}/verify")).json()["ok"]
    undo_fork_start = await client.post(f"/encounters/{fid}/undo", json={"steps": 2})
    assert undo_fork_start.status_code == 422
    log = (await client.get(f"/encounters/{fid}/log.txt")).text
    assert f"forks from encounter {eid} at version {at}" in log
