"""A campaign read with a player's token: the party exact, the bestiary by name only, the
same version, log and events as the GM's but for the bestiary's numbers, which the chain
covers by salted commitments only, so the player recomputes every link."""

from __future__ import annotations

import pytest

from events.committed_health import COMMITMENTS, SALTS
from tests.e2e.helpers import Client, campaign_with_party, posted
from tests.support.chain import relinked
from tests.support.values import strings_in

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _table(client: Client) -> tuple[str, dict[str, str], dict[str, str]]:
    """A party of two, Aria hurt by a ruling, a goblin statblock rolled with 2d6, an
    encounter with two goblins under way, and Aria's player's token."""
    campaign, gm = await campaign_with_party(client, "Ashes")
    commands = f"/campaigns/{campaign}/commands"
    ruling = {
        "type": "campaign.adjust",
        "member": "aria",
        "condition": {"hp": 15, "conditions": []},
        "reason": "a trap",
    }
    await posted(client, commands, {"command": ruling}, gm)
    start = {
        "name": "The bridge",
        "members": ["aria"],
        "monsters": [{"statblock": "goblin", "count": 2}],
    }
    await posted(client, f"/campaigns/{campaign}/encounters", start, gm)
    minted = await posted(client, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    return campaign, gm, {"Authorization": f"Bearer {minted['token']}"}


async def test_a_player_reads_the_party_but_not_the_bestiarys_numbers(client: Client) -> None:
    campaign, gm, player = await _table(client)
    as_gm = await client.get(f"/campaigns/{campaign}", headers=gm)
    as_player = await client.get(f"/campaigns/{campaign}", headers=player)
    assert as_player.status_code == 200, as_player.text
    assert as_player.headers["etag"] == as_gm.headers["etag"]
    theirs, ours = as_player.json(), as_gm.json()
    assert theirs["party"] == ours["party"]  # the players' own characters: exact
    assert {m["member"]: m["condition"] for m in theirs["party"]}["aria"]["hp"] == 15
    assert ours["bestiary"][0]["sheet"]["hp"] == 7 and ours["bestiary"][0]["hit_points"] == "2d6"
    assert theirs["bestiary"] == [
        {"statblock": "goblin", "name": "Goblin", "sheet": {}, "hit_points": None}
    ]
    names = [m["name"] for m in theirs["encounters"][0]["monsters"]]
    assert names == ["Goblin 1", "Goblin 2"]
    assert theirs["encounters"][0]["members"] == ["aria"]


async def test_a_players_log_and_events_keep_the_gms_versions(client: Client) -> None:
    campaign, gm, player = await _table(client)
    gm_log = (await client.get(f"/campaigns/{campaign}/log", headers=gm)).json()["entries"]
    log = (await client.get(f"/campaigns/{campaign}/log", headers=player)).json()["entries"]
    assert [e["version"] for e in log] == [e["version"] for e in gm_log] == [1, 2, 3, 4, 5, 6]
    assert gm_log[3]["text"] == "Goblin enters the bestiary (hit points 2d6)."
    assert log[3]["text"] == "Goblin enters the bestiary."
    assert [e["text"] for e in log[:3] + log[4:]] == [e["text"] for e in gm_log[:3] + gm_log[4:]]

    gm_events = await client.get(f"/campaigns/{campaign}/events", headers=gm)
    events = await client.get(f"/campaigns/{campaign}/events", headers=player)
    assert events.status_code == 200, events.text
    ours, theirs = gm_events.json()["events"], events.json()["events"]
    # The notation as a value: ids and commitments are hex and may spell "2d6" by chance.
    assert "2d6" in strings_in([e["data"] for e in ours]) and "2d6" not in strings_in(theirs)
    links = [(e["stream_version"], e["prev_hash"], e["hash"]) for e in ours]
    assert [(e["stream_version"], e["prev_hash"], e["hash"]) for e in theirs] == links
    added = theirs[3]
    assert added["type"] == "campaign.statblock_added" and added["data"]["sheet"] == {}
    assert [e["data"] for e in theirs[:3]] == [e["data"] for e in ours[:3]]


async def test_a_player_recomputes_the_campaigns_chain_from_what_they_read(
    client: Client,
) -> None:
    campaign, gm, player = await _table(client)
    ours = (await client.get(f"/campaigns/{campaign}/events", headers=gm)).json()["events"]
    theirs = (await client.get(f"/campaigns/{campaign}/events", headers=player)).json()["events"]
    hiding = {e["type"]: e["data"] for e in ours if COMMITMENTS in e["data"]}
    assert set(hiding["campaign.statblock_added"][COMMITMENTS]) == {"/sheet", "/hit_points"}
    started = hiding["campaign.encounter_started"][COMMITMENTS]
    assert set(started) == {"/monsters/0/hit_points", "/monsters/1/hit_points", "/rolls"}
    assert all(set(data[SALTS]) == set(data[COMMITMENTS]) for data in hiding.values())
    assert relinked(campaign, ours) == []  # the GM: values, salts and every commitment
    assert not any(SALTS in e["data"] for e in theirs)
    assert [e["data"].get(COMMITMENTS) for e in theirs] == [
        e["data"].get(COMMITMENTS) for e in ours
    ]
    assert relinked(campaign, theirs) == []  # the player: every link, without the numbers


async def test_reads_travel_to_a_version_and_a_player_reads_it_redacted(client: Client) -> None:
    campaign, gm, player = await _table(client)  # 4: the goblin, 5: the ruling, 6: the fight
    then = await client.get(f"/campaigns/{campaign}?at=4", headers=player)
    assert then.status_code == 200, then.text
    view = then.json()
    assert view["version"] == 4 and view["encounters"] == []
    assert {m["member"]: m["condition"] for m in view["party"]}["aria"] is None  # no ruling yet
    assert view["bestiary"] == [
        {"statblock": "goblin", "name": "Goblin", "sheet": {}, "hit_points": None}
    ]
    as_gm = (await client.get(f"/campaigns/{campaign}?at=4", headers=gm)).json()
    assert as_gm["bestiary"][0]["hit_points"] == "2d6" and as_gm["version"] == 4

    log = (await client.get(f"/campaigns/{campaign}/log?at=4", headers=player)).json()["entries"]
    assert [e["version"] for e in log] == [1, 2, 3, 4]
    assert log[3]["text"] == "Goblin enters the bestiary."
    page = await client.get(f"/campaigns/{campaign}/events?at=5", headers=player)
    events = page.json()["events"]
    assert [e["stream_version"] for e in events] == [1, 2, 3, 4, 5]
    assert relinked(campaign, events) == []

    for path in ("", "/log", "/events"):
        ahead = await client.get(f"/campaigns/{campaign}{path}?at=7", headers=player)
        assert ahead.status_code == 404, ahead.text
        assert ahead.headers["content-type"].startswith("application/problem+json")
        assert ahead.json()["type"].endswith("version-not-found")
        assert ahead.json()["current_version"] == 6
        for bad in ("0", "abc"):
            refused = await client.get(f"/campaigns/{campaign}{path}?at={bad}", headers=player)
            assert refused.status_code == 400, refused.text
            assert refused.headers["content-type"].startswith("application/problem+json")
