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
from contextlib import ExitStack
from typing import Any
from unittest import mock

import httpx
import msgspec
import pytest

from tests.e2e.helpers import combatant
from tests.e2e.noninterference.worlds import SameDraws, Transcript, World, two_worlds

pytestmark = pytest.mark.asyncio(loop_scope="session")

SECRET_FACES = ([[4]], [[1]])
"""Hidden damage to the party's member: 4 in one world, 1 in the other."""


def _campaign_draws(draws: SameDraws) -> ExitStack:
    """The worlds' draws, and the campaign writer's own ids, clock and token secrets
    drawn the same way."""

    class Clock:
        @staticmethod
        def now(tz: Any = None) -> Any:
            return draws.now(tz)

    stack = draws.patches()
    fake_secrets = mock.Mock(token_hex=draws.token_hex, token_urlsafe=draws.token_urlsafe)
    stack.enter_context(mock.patch("service.write.campaigns.uuid4", draws.uuid4))
    stack.enter_context(mock.patch("service.write.campaigns.datetime", Clock))
    stack.enter_context(mock.patch("service.campaign_store.tokens.secrets", fake_secrets))
    return stack


@pytest.fixture(scope="module")
async def worlds(postgres_url: str) -> AsyncIterator[tuple[World, World]]:
    async with two_worlds(postgres_url) as both:
        yield both


async def _ok(http: httpx.AsyncClient, path: str, body: Any, auth: dict[str, str]) -> Any:
    answer = await http.post(path, json=body, headers=auth)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


async def _play(world: World, side: int) -> tuple[Transcript, str, dict[str, str], str]:
    http = world.http
    created = await _ok(
        http, "/campaigns", {"ruleset": "generic", "name": "Veiled"}, {"Idempotency-Key": "veiled"}
    )
    campaign = created["campaign_id"]
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    for sheet in (combatant("aria", 22), combatant("borin", 30)):
        await _ok(http, commands, {"command": {"type": "campaign.add_member", "sheet": sheet}}, gm)
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7),
        "hit_points": "2d6",
    }
    await _ok(http, commands, {"command": goblin}, gm)
    minted = await _ok(http, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {minted['token']}"}
    start = {
        "name": "In the dark",
        "members": ["aria", "borin"],
        "monsters": [{"statblock": "goblin", "count": 2, "hit_points": "fixed"}],
    }
    eid = (await _ok(http, f"/campaigns/{campaign}/encounters", start, gm))["encounter_id"]
    watcher = await _ok(http, f"/encounters/{eid}/tokens", {"role": "spectator"}, {})
    spectator = {"Authorization": f"Bearer {watcher['token']}"}

    secret = {"type": "generic.damage", "target": "aria", "notation": "1d4"}
    body = {"command": secret, "hidden": True, "manual_dice": SECRET_FACES[side]}
    await _ok(http, f"/encounters/{eid}/commands", body, {})
    await _ok(
        http, f"/encounters/{eid}/commands", {"command": {"type": "generic.end_encounter"}}, {}
    )
    await asyncio.sleep(1.5)  # the carrier's turns (every 0.5 s) read the end, and hold it

    seen = Transcript()
    for who, auth in (("player", player), ("spectator", spectator)):
        for path in ("", "/log", "/events", "/stats"):
            seen.add(
                f"{who}: campaign{path}",
                await http.get(f"/campaigns/{campaign}{path}", headers=auth),
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
        with _campaign_draws(SameDraws(7000)):
            played.append(await _play(world, side))
    (a, *_), (b, *_) = played
    assert [e[0] for e in a.entries] == [e[0] for e in b.entries]
    for left, right in zip(a.normalised(), b.normalised(), strict=True):
        assert left == right, left[0]
    player_view = a.entries[0]
    assert player_view[1] == 200  # the bestiary stays the GM's:
    assert "2d6" not in str(msgspec.json.decode(player_view[3])["bestiary"])
    assert a.entries[4][1] == 401  # an encounter's spectator token opens no campaign
    assert a.entries[-1][1] == 403

    hp = []
    for world, (_, campaign, gm, eid) in zip(worlds, played, strict=True):
        await _ok(world.http, f"/encounters/{eid}/rolls/reveal", {"roll_ids": ["s1"]}, {})
        view = await _carried(world.http, campaign, gm)
        hp.append({m["member"]: m["condition"] for m in view["party"]}["aria"]["hp"])
    assert hp == [22 - 4, 22 - 1]  # the reveal lets each world's own damage carry over


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
    created = await _ok(
        http, "/campaigns", {"ruleset": "generic", "name": "Dice"}, {"Idempotency-Key": "dice"}
    )
    campaign = created["campaign_id"]
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    member = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    await _ok(http, commands, {"command": member}, gm)
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7, ac=10),
        "hit_points": "2d6+1",
    }
    await _ok(http, commands, {"command": goblin}, gm)
    minted = await _ok(http, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {minted['token']}"}
    start = {
        "name": "Behind the screen",
        "members": ["aria"],
        "monsters": [{"statblock": "goblin", "count": 2, "hit_points": "rolled"}],
        "npc_health": "hidden",
    }
    eid = (await _ok(http, f"/campaigns/{campaign}/encounters", start, gm))["encounter_id"]
    watcher = await _ok(http, f"/encounters/{eid}/tokens", {"role": "spectator"}, {})
    spectator = {"Authorization": f"Bearer {watcher['token']}"}
    # The fight goes on: a public roll after the secret ones, damage to a goblin.
    attack = {
        "type": "generic.attack",
        "attacker": "aria",
        "target": "goblin-1",
        "notation": "1d20",
        "damage": "1d2",  # never fells a goblin: 2d6+1 gives it 3 or more
    }
    await _ok(http, f"/encounters/{eid}/commands", {"command": attack}, {})
    await _ok(http, f"/encounters/{eid}/dice/reveal", {}, {})

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
        with _campaign_draws(draws), _other_secret_seed(draws, side):
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
        await _ok(world.http, f"/encounters/{eid}/rolls/reveal", {"roll_ids": ["r1", "r2"]}, {})
    assert hit_points[0] != hit_points[1]
