"""GET /campaigns/{id}/stats on a real PostgreSQL: two encounters of a campaign, their
damage meter and dice added up by hand, for the GM and for a player of the party."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Client, combatant, posted

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _attack(attacker: str, target: str, notation: str, damage: str) -> dict[str, Any]:
    return {
        "type": "generic.attack",
        "attacker": attacker,
        "target": target,
        "notation": notation,
        "damage": damage,
    }


async def _two_fights(client: Client) -> tuple[str, dict[str, str], dict[str, str], list[str]]:
    created = await posted(client, "/campaigns", {"ruleset": "generic", "name": "Tallies"})
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    aria = {"type": "campaign.add_member", "sheet": combatant("aria", 22, ac=12)}
    await posted(client, commands, {"command": aria}, gm)
    goblin = {"type": "campaign.add_statblock", "sheet": combatant("goblin", 20, ac=10)}
    await posted(client, commands, {"command": goblin}, gm)
    minted = await posted(client, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {minted['token']}"}
    fights = [
        # Aria hits (15+4 vs 10) for 3+2; the goblin misses her (5+2 vs 12).
        [(_attack("aria", "goblin", "1d20+4", "1d6+2"), [[15], [3]]),
         (_attack("goblin", "aria", "1d20+2", "1d4"), [[5]])],
        # Aria hits (20+4) for 6+2; a falling beam (the GM's, nobody's) does 2 to her.
        [(_attack("aria", "goblin", "1d20+4", "1d6+2"), [[20], [6]]),
         ({"type": "generic.damage", "target": "aria", "notation": "1d4"}, [[2]])],
    ]  # fmt: skip
    encounters = []
    for n, fight in enumerate(fights):
        start = {"name": f"Fight {n}", "members": ["aria"], "monsters": [{"statblock": "goblin"}]}
        eid = (await posted(client, f"/campaigns/{campaign}/encounters", start, gm))["encounter_id"]
        for cmd, dice in fight:
            await posted(
                client, f"/encounters/{eid}/commands", {"command": cmd, "manual_dice": dice}
            )
        close = {"type": "campaign.close_encounter", "encounter": eid, "reason": "next fight"}
        await posted(client, commands, {"command": close}, gm)
        encounters.append(eid)
    return campaign, gm, player, encounters


def _by_combatant(stats: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["combatant"]: c for c in stats["combatants"]}


async def test_the_gm_reads_both_fights_added_up(client: Client) -> None:
    campaign, gm, _, encounters = await _two_fights(client)
    answer = await client.get(f"/campaigns/{campaign}/stats", headers=gm)
    assert answer.status_code == 200, answer.text
    stats = answer.json()
    assert [e["encounter_id"] for e in stats["encounters"]] == encounters
    assert (
        stats["version"]
        == (await client.get(f"/campaigns/{campaign}", headers=gm)).json()["version"]
    )
    who = _by_combatant(stats)
    aria, goblin = who["aria"], who["goblin"]
    assert (aria["attacks"], aria["hits"], aria["damage_dealt"], aria["damage_taken"]) == (
        2,
        2,
        5 + 8,
        2,
    )
    assert (goblin["attacks"], goblin["misses"], goblin["damage_taken"]) == (1, 1, 5 + 8)
    assert stats["unattributed_damage"] == 2
    assert stats["rolls"] == 6  # two attacks of two rolls, a missed attack's one, the beam's
    manual = {d["sides"]: d for d in stats["dice"]["manual"]}
    assert manual[20]["dice"] == 3
    assert [i + 1 for i, n in enumerate(manual[20]["faces"]) if n] == [5, 15, 20]
    assert manual[6]["faces"] == [0, 0, 1, 0, 0, 1] and manual[4]["faces"] == [0, 1, 0, 0]
    assert stats["dice"]["server"] == []
    # The same figures as each encounter's own, added.
    dealt = 0
    for eid, counted in zip(encounters, stats["encounters"], strict=True):
        own = (await client.get(f"/encounters/{eid}/stats")).json()
        assert counted["version"] == own["version"]
        dealt += _by_combatant(own)["aria"]["damage_dealt"]
    assert dealt == aria["damage_dealt"]


async def test_a_player_reads_what_each_encounter_shows_players(client: Client) -> None:
    campaign, _, player, _ = await _two_fights(client)
    answer = await client.get(f"/campaigns/{campaign}/stats", headers=player)
    assert answer.status_code == 200, answer.text
    stats = answer.json()
    who = _by_combatant(stats)
    # The goblin's health is hidden (npc_health "descriptor"): harm to it counts nowhere.
    assert (who["aria"]["attacks"], who["aria"]["hits"], who["aria"]["damage_dealt"]) == (2, 2, 0)
    assert who["goblin"]["damage_taken"] == 0 and who["goblin"]["misses"] == 1
    assert who["aria"]["damage_taken"] == 2 and stats["unattributed_damage"] == 2
    assert stats["rolls"] == 6  # the rolls were public


async def test_no_token_reads_no_statistics(client: Client) -> None:
    campaign, *_ = await _two_fights(client)
    assert (await client.get(f"/campaigns/{campaign}/stats")).status_code == 401


async def test_stats_travel_to_a_version_and_a_player_reads_them_redacted(
    client: Client,
) -> None:
    """?at=N as the campaign's state, log and events take it: the encounters the campaign
    had started by version N (1 created, 2 Aria, 3 the goblin, 4 the first fight started,
    5 closed, 6 the second started, 7 closed), as the same reader reads them."""
    campaign, gm, player, encounters = await _two_fights(client)
    then = await client.get(f"/campaigns/{campaign}/stats?at=5", headers=gm)
    assert then.status_code == 200, then.text
    first = then.json()
    assert first["version"] == 5
    assert [e["encounter_id"] for e in first["encounters"]] == encounters[:1]
    assert _by_combatant(first)["aria"]["damage_dealt"] == 5  # the second fight's 8 not yet
    before_any = (await client.get(f"/campaigns/{campaign}/stats?at=3", headers=gm)).json()
    assert before_any["encounters"] == [] and before_any["combatants"] == []

    theirs = (await client.get(f"/campaigns/{campaign}/stats?at=5", headers=player)).json()
    who = _by_combatant(theirs)
    assert (who["aria"]["hits"], who["aria"]["damage_dealt"]) == (1, 0)  # the goblin's hidden
    assert who["goblin"]["damage_taken"] == 0 and theirs["rolls"] == 3

    latest = (await client.get(f"/campaigns/{campaign}/stats", headers=gm)).json()
    at_latest = await client.get(f"/campaigns/{campaign}/stats?at=7", headers=gm)
    assert at_latest.json() == latest
    for headers in (gm, player):
        ahead = await client.get(f"/campaigns/{campaign}/stats?at=8", headers=headers)
        assert ahead.status_code == 404, ahead.text
        assert ahead.headers["content-type"].startswith("application/problem+json")
        assert ahead.json()["type"].endswith("version-not-found")
        assert ahead.json()["current_version"] == 7
        assert "its latest is 7" in ahead.json()["detail"]
        for bad in ("0", "-1", "abc", "1.5"):
            refused = await client.get(f"/campaigns/{campaign}/stats?at={bad}", headers=headers)
            assert refused.status_code == 400, (bad, refused.text)
            assert refused.headers["content-type"].startswith("application/problem+json")
    anonymous = await client.get(f"/campaigns/{campaign}/stats?at=abc")
    assert anonymous.status_code == 401  # the token before anything else
