"""Noninterference over a campaign's read paths: two worlds whose only difference is the
faces of a hidden roll in an encounter started from the campaign.  Until the GM reveals
it, the campaign's player (and an encounter's spectator knocking on the campaign) reads
the same bytes in both: the carry-over the secret holds back must not show, not even as
a version.  After the reveal the carry-over happens and the worlds may differ, and do."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import httpx
import msgspec
import pytest

from tests.e2e.helpers import combatant, posted
from tests.e2e.noninterference.worlds import (
    SameDraws,
    Transcript,
    World,
    campaign_draws,
    two_worlds,
)
from tests.support.chain import relinked
from tests.support.values import strings_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

SECRET_FACES = ([[4]], [[1]])
"""Hidden damage to the party's member: 4 in one world, 1 in the other."""


@pytest.fixture(scope="module")
async def worlds(postgres_url: str) -> AsyncIterator[tuple[World, World]]:
    async with two_worlds(postgres_url) as both:
        yield both


async def _play(world: World, side: int) -> tuple[Transcript, str, dict[str, str], str]:
    http = world.http
    created = await posted(
        http, "/campaigns", {"ruleset": "generic", "name": "Veiled"}, {"Idempotency-Key": "veiled"}
    )
    campaign = created["campaign_id"]
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    for sheet in (combatant("aria", 22), combatant("borin", 30)):
        await posted(
            http, commands, {"command": {"type": "campaign.add_member", "sheet": sheet}}, gm
        )
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7),
        "hit_points": "2d6",
    }
    await posted(http, commands, {"command": goblin}, gm)
    minted = await posted(http, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {minted['token']}"}
    watching = await posted(http, f"/campaigns/{campaign}/tokens", {"role": "spectator"}, gm)
    onlooker = {"Authorization": f"Bearer {watching['token']}"}
    start = {
        "name": "In the dark",
        "members": ["aria", "borin"],
        "monsters": [{"statblock": "goblin", "count": 2, "hit_points": "fixed"}],
    }
    eid = (await posted(http, f"/campaigns/{campaign}/encounters", start, gm))["encounter_id"]
    watcher = await posted(http, f"/encounters/{eid}/tokens", {"role": "spectator"}, {})
    spectator = {"Authorization": f"Bearer {watcher['token']}"}

    secret = {"type": "generic.damage", "target": "aria", "notation": "1d4"}
    body = {"command": secret, "hidden": True, "manual_dice": SECRET_FACES[side]}
    await posted(http, f"/encounters/{eid}/commands", body, {})
    await posted(
        http, f"/encounters/{eid}/commands", {"command": {"type": "generic.end_encounter"}}, {}
    )
    await asyncio.sleep(1.5)  # the carrier's turns (every 0.5 s) read the end, and hold it

    seen = Transcript()
    readers = (("player", player), ("spectator", spectator), ("campaign spectator", onlooker))
    for who, auth in readers:
        for path in ("", "/log", "/events", "/stats"):
            seen.add(
                f"{who}: campaign{path}",
                await http.get(f"/campaigns/{campaign}{path}", headers=auth),
            )
    for path in ("", "/log", "/events"):  # the campaign's spectator in the encounter
        seen.add(
            f"campaign spectator: encounter{path}",
            await http.get(f"/encounters/{eid}{path}", headers=onlooker),
        )
    # Asking for the carry-over the secret holds: refused as any player's write, held or not.
    carry = f"/campaigns/{campaign}/encounters/{eid}/carry-over"
    seen.add("player: carry over", await http.post(carry, headers=player))
    return seen, campaign, gm, eid


async def _carried(http: httpx.AsyncClient, campaign: str, gm: dict[str, str]) -> Any:
    for _ in range(100):
        view = (await http.get(f"/campaigns/{campaign}", headers=gm)).json()
        if view["encounters"][0]["carried"]:
            return view
        await asyncio.sleep(0.1)
    raise AssertionError("the revealed encounter was never carried over")


async def test_a_hidden_roll_in_a_campaign_encounter_reads_the_same(
    worlds: tuple[World, World],
) -> None:
    played = []
    for side, world in enumerate(worlds):
        with campaign_draws(SameDraws(7000)):
            played.append(await _play(world, side))
    (a, *_), (b, *_) = played
    assert [e[0] for e in a.entries] == [e[0] for e in b.entries]
    for left, right in zip(a.normalised(), b.normalised(), strict=True):
        assert left == right, left[0]
    player_view = a.entries[0]
    assert player_view[1] == 200  # the bestiary stays the GM's:
    assert "2d6" not in strings_in(msgspec.json.decode(player_view[3])["bestiary"])
    assert a.entries[4][1] == 401  # an encounter's spectator token opens no campaign
    read = {label: (status, body) for label, status, _, body in a.entries}
    for path in ("", "/log", "/events", "/stats"):  # the campaign's spectator: a player's view
        assert read[f"campaign spectator: campaign{path}"] == read[f"player: campaign{path}"]
    assert read["campaign spectator: encounter"][0] == 200
    assert a.entries[-1][1] == 403

    hp = []
    for world, (_, campaign, gm, eid) in zip(worlds, played, strict=True):
        await posted(world.http, f"/encounters/{eid}/rolls/reveal", {"roll_ids": ["s1"]}, {})
        view = await _carried(world.http, campaign, gm)
        hp.append({m["member"]: m["condition"] for m in view["party"]}["aria"]["hp"])
    assert hp == [22 - 4, 22 - 1]  # the reveal lets each world's own damage carry over


BESTIARIES = ((7, "2d6", 13), (9, "3d4", 15))
"""The goblin's hit points, their notation and its armour: the GM's numbers, one set per
world."""


async def _bestiary(world: World, side: int) -> tuple[Transcript, str, dict[str, str], Any]:
    """A party of one and a goblin statblock whose numbers differ by world, an encounter
    with two goblin copies; what the player and the campaign's spectator read of it."""
    http = world.http
    created = await posted(http, "/campaigns", {"ruleset": "generic", "name": "Bestiary"}, {})
    campaign = created["campaign_id"]
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    member = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    await posted(http, commands, {"command": member}, gm)
    hp, notation, ac = BESTIARIES[side]
    goblin = {"type": "campaign.add_statblock", "sheet": combatant("goblin", hp, ac=ac)}
    await posted(http, commands, {"command": {**goblin, "hit_points": notation}}, gm)
    minted = await posted(http, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {minted['token']}"}
    watching = await posted(http, f"/campaigns/{campaign}/tokens", {"role": "spectator"}, gm)
    onlooker = {"Authorization": f"Bearer {watching['token']}"}
    start = {
        "name": "The warren",
        "members": ["aria"],
        "monsters": [{"statblock": "goblin", "count": 2, "hit_points": "fixed"}],
    }
    await posted(http, f"/campaigns/{campaign}/encounters", start, gm)
    seen = Transcript()
    for who, auth in (("player", player), ("campaign spectator", onlooker)):
        for path in ("", "/log", "/events", "/stats"):
            seen.add(
                f"{who}: campaign{path}",
                await http.get(f"/campaigns/{campaign}{path}", headers=auth),
            )
    gm_events = (await http.get(f"/campaigns/{campaign}/events", headers=gm)).json()["events"]
    return seen, campaign, gm, gm_events


async def test_bestiaries_differing_only_in_hidden_numbers_read_the_same(
    worlds: tuple[World, World],
) -> None:
    played = []
    for side, world in enumerate(worlds):
        with campaign_draws(SameDraws(7001)):
            played.append(await _bestiary(world, side))
    (a, campaign, _, gm_a), (b, _, _, gm_b) = played
    assert [e["data"] for e in gm_a] != [e["data"] for e in gm_b]  # the worlds do differ
    assert [e[0] for e in a.entries] == [e[0] for e in b.entries]
    for left, right in zip(a.normalised(), b.normalised(), strict=True):
        assert left == right, left[0]
    assert all(entry[1] == 200 for entry in a.entries)
    for (_, notation, _), transcript, gm_events in zip(BESTIARIES, (a, b), (gm_a, gm_b)):
        assert relinked(campaign, gm_events) == []  # the GM: values, salts, commitments
        for label, _, _, body in transcript.entries:
            if label.endswith("/events"):  # a reader recomputes every link, hashes and all
                events = msgspec.json.decode(body)["events"]
                assert [e["hash"] for e in events] == [e["hash"] for e in gm_events]
                assert relinked(campaign, events) == [], label
                assert notation not in strings_in([e["data"] for e in events])


def _other_secret_seed(draws: SameDraws, side: int) -> Any:
    """The worlds' seeds, drawn alike, but for the secret seed of side 1's encounter (the
    second seed drawn, after its public one): the hit points rolled from it differ."""
    count = itertools.count()

    def new_seed() -> bytes:
        seed = draws.new_seed()
        return hashlib.sha256(seed).digest() if side == 1 and next(count) == 1 else seed

    return mock.patch("service.write.dice.new_seed", new_seed)


ENCOUNTER_READS = ("", "/log", "/log.txt", "/events", "/rolls", "/stats", "/verify")


async def _rolled(world: World, side: int) -> tuple[Transcript, str]:
    http = world.http
    created = await posted(
        http, "/campaigns", {"ruleset": "generic", "name": "Dice"}, {"Idempotency-Key": "dice"}
    )
    campaign = created["campaign_id"]
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    member = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    await posted(http, commands, {"command": member}, gm)
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7, ac=10),
        "hit_points": "2d6+1",
    }
    await posted(http, commands, {"command": goblin}, gm)
    minted = await posted(http, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {minted['token']}"}
    start = {
        "name": "Behind the screen",
        "members": ["aria"],
        "monsters": [{"statblock": "goblin", "count": 2, "hit_points": "rolled"}],
        "npc_health": "hidden",
    }
    eid = (await posted(http, f"/campaigns/{campaign}/encounters", start, gm))["encounter_id"]
    watcher = await posted(http, f"/encounters/{eid}/tokens", {"role": "spectator"}, {})
    spectator = {"Authorization": f"Bearer {watcher['token']}"}
    # The fight goes on: a public roll after the secret ones, damage to a goblin.
    attack = {
        "type": "generic.attack",
        "attacker": "aria",
        "target": "goblin-1",
        "notation": "1d20",
        "damage": "1d2",  # never fells a goblin: 2d6+1 gives it 3 or more
    }
    await posted(http, f"/encounters/{eid}/commands", {"command": attack}, {})
    await posted(http, f"/encounters/{eid}/dice/reveal", {}, {})

    seen = Transcript()
    for who, auth in (("player", player), ("spectator", spectator)):
        for path in ENCOUNTER_READS:
            seen.add(
                f"{who}: encounter{path}", await http.get(f"/encounters/{eid}{path}", headers=auth)
            )
    for path in ("", "/log", "/events", "/stats"):
        seen.add(
            f"player: campaign{path}",
            await http.get(f"/campaigns/{campaign}{path}", headers=player),
        )
    return seen, eid


async def test_hit_points_rolled_in_secret_read_the_same(worlds: tuple[World, World]) -> None:
    played = []
    for side, world in enumerate(worlds):
        draws = SameDraws(7100)
        with campaign_draws(draws), _other_secret_seed(draws, side):
            played.append(await _rolled(world, side))
    (a, eid), (b, _) = played
    assert [e[0] for e in a.entries] == [e[0] for e in b.entries]
    assert all(e[1] == 200 for e in a.entries), [(e[0], e[1]) for e in a.entries]
    for left, right in zip(a.normalised(), b.normalised(), strict=True):
        assert left == right, left[0]

    # The worlds do differ, as the GM reads them; and after the reveal, for players too.
    hit_points = []
    for world in worlds:
        events = (await world.http.get(f"/encounters/{eid}/events")).json()["events"]
        rolled = next(e for e in events if e["type"] == "encounter.hit_points_rolled")
        hit_points.append([c["hit_points"] for c in rolled["data"]["copies"]])
        await posted(world.http, f"/encounters/{eid}/rolls/reveal", {"roll_ids": ["r1", "r2"]}, {})
    assert hit_points[0] != hit_points[1]
