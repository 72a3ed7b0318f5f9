"""A three-round Untold Aeons fight over HTTP: Mara and Jonah (player tokens) against a
Cultist and a Horror, with Fast and Slow turns, every melee defence, a shot at a diving
target, a Rapid Fire burst, a sanity check that leaves Jonah Shaken, a wound check,
karma from both pools, a difficulty roll behind the screen revealed later and an undo;
then the log read back as the Narrator would announce it."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, command, create, inner_events

P = "untold-aeons."


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _character(ident: str, name: str, side: str, pc: bool, **sheet: Any) -> dict[str, Any]:
    return {"type": P + "add_character", "id": ident, "name": name, "side": side, "pc": pc, **sheet}


MARA = _character(
    "mara",
    "Mara",
    "investigators",
    True,
    dexterity=3,
    toughness=3,
    willpower=3,
    intellect=3,
    skills={"firearms": 3, "brawl": 2, "perception": 2},
    weapons={
        "revolver": {"base": 2, "range": 20, "piercing": 1},
        "knife": {"base": 1, "plus": True},
    },
)
JONAH = _character(
    "jonah",
    "Jonah",
    "investigators",
    True,
    dexterity=4,
    toughness=2,
    willpower=3,
    intellect=3,
    skills={"firearms": 2, "occultism": 2},
    weapons={"tommy gun": {"base": 2, "range": 30, "rapid_fire": 3}},
)
CULTIST = _character(
    "cultist",
    "the Cultist",
    "cultists",
    False,
    dexterity=2,
    toughness=2,
    willpower=2,
    intellect=2,
    skills={"brawl": 2},
    weapons={"dagger": {"base": 1, "plus": True}},
)
HORROR = _character(
    "horror",
    "the Horror",
    "cultists",
    False,
    dexterity=3,
    toughness=5,
    willpower=5,
    intellect=1,
    skills={"brawl": 3},
    weapons={"claws": {"base": 2, "plus": True, "piercing": 1}},
)


async def test_three_rounds_of_untold_aeons_over_http(client: Client) -> None:
    eid = await create(client, "The flooded crypt", ruleset="untold-aeons", allow_player_dice=True)
    tokens: dict[str, str] = {}

    async def gm(
        cmd: dict[str, Any], *rolls: list[int], expect: int = 200, hidden: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"command": cmd, "hidden": hidden}
        if rolls:
            body["manual_dice"] = list(rolls)
        response = await client.post(f"/encounters/{eid}/commands", json=body)
        assert response.status_code == expect, response.text
        result: dict[str, Any] = response.json()
        return result

    async def player(
        who: str, cmd: dict[str, Any], *rolls: list[int], expect: int = 200
    ) -> dict[str, Any]:
        return await command(
            client,
            eid,
            cmd,
            manual=list(rolls) if rolls else None,
            expect=expect,
            headers=bearer(tokens[who]),
        )

    for sheet in (MARA, JONAH, CULTIST, HORROR):
        await gm(sheet)
    for who in ("mara", "jonah"):
        minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": [who]})
        assert minted.status_code == 201, minted.text
        tokens[who] = minted.json()["token"]
    await gm({"type": P + "set_distance", "a": "mara", "b": "cultist", "yards": 10})
    await gm({"type": P + "set_distance", "a": "jonah", "b": "horror", "yards": 15})

    def turn(who: str, speed: str) -> dict[str, Any]:
        return {"type": P + "choose_turn", "character": who, "speed": speed}

    def attack(who: str, target: str, weapon: str, **more: Any) -> dict[str, Any]:
        return {"type": P + "attack", "attacker": who, "target": target, "weapon": weapon, **more}

    def respond(who: str, response: str, **more: Any) -> dict[str, Any]:
        return {"type": P + "respond", "character": who, "response": response, **more}

    # Round 1: Jonah (Fast) bursts at the Horror with karma, the Cultist (Fast) stabs at
    # Mara who Defends, Mara (Slow) shoots the diving Cultist, the Horror claws her Dodge.
    await gm({"type": P + "begin_round", "initiating_side": "investigators"})
    await player("mara", turn("mara", "slow"))
    await player("jonah", turn("jonah", "fast"))
    await gm(turn("cultist", "fast"))
    await gm(turn("horror", "slow"))
    early = await player("mara", attack("mara", "cultist", "revolver"), expect=422)
    assert "Fast turns of the initiating side" in early["detail"]
    refused = await player("jonah", turn("mara", "fast"), expect=403)
    assert "mara" in refused["detail"]
    await player("jonah", {"type": P + "spend_karma", "by": "jonah", "use": "bonus"})
    await player("jonah", attack("jonah", "horror", "tommy gun", rapid_fire=True))
    burst = await gm(respond("horror", "none"), [6, 6, 1, 5, 2])
    hits = burst["events"][0]["data"]["hits"]
    assert [h["taken"] for h in hits] == [3, 1, 1] and hits[0]["critical"] is True
    await gm(attack("cultist", "mara", "dagger"))
    defended = await player("mara", respond("mara", "defend"), [5, 1], [5, 3])
    assert defended["events"][0]["data"]["result"] == "defended"
    await player("mara", attack("mara", "cultist", "revolver"))
    dive = await gm(respond("cultist", "dive"), [6, 5, 1, 5, 2, 3])
    shot = dive["events"][0]["data"]
    assert shot["prone"] == ["cultist"] and shot["damage_after"] == 6
    assert shot["rolls"][0]["pool"]["difficulty_dice"] == 3
    assert [d["counts"] for d in shot["rolls"][0]["dice"]][:3] == [
        "2 successes",
        "1 success",
        "Advantage",
    ]
    both = await player("mara", {"type": P + "move", "character": "mara", "yards": 3})
    assert both["events"][-1]["type"] == P + "turn_ended"
    await gm(attack("horror", "mara", "claws"))
    await player("mara", respond("mara", "dodge"), [6, 6, 2], [5, 2, 2])
    await gm({"type": P + "end_turn", "character": "horror"})

    # Between the blows, the Narrator's sanity check leaves Jonah Shaken.
    await gm(
        {
            "type": P + "rule",
            "ruling": {"type": "set_value", "character": "jonah", "field": "stress", "value": 12},
            "reason": "last night's dreams",
        }
    )
    sanity = await gm(
        {
            "type": P + "sanity_check",
            "character": "jonah",
            "cause": "the Horror's face",
            "difficulty": 3,
            "category": "unnatural",
        },
        [5, 1, 3, 6, 5, 2],
        [2, 3, 1, 5, 5, 6, 2, 2],
    )
    assert [e["type"] for e in sanity["events"]] == [
        P + "sanity_checked",
        P + "limit_checked",
        P + "notch_gained",
    ]

    # Round 2: Mara (Fast) gets up; the Cultist's dagger meets her Fight Back and a wound
    # check; the Horror's claws against Jonah's Defend: nothing; Narrator's karma.
    await gm({"type": P + "begin_round"})
    await player("mara", turn("mara", "fast"))
    await player("jonah", turn("jonah", "slow"))
    await gm(turn("cultist", "fast"))
    await gm(turn("horror", "fast"))
    await player("mara", {"type": P + "stand_up", "character": "mara"})
    again = await player("mara", {"type": P + "move", "character": "mara", "yards": 2}, expect=422)
    assert "a Fast turn allows an action or a move, not both" in again["detail"]
    await gm(attack("cultist", "mara", "dagger"))
    fought = await player(
        "mara", respond("mara", "fight_back", weapon="knife"), [5, 3], [6, 1], [3, 3, 5, 2]
    )
    kinds = [e["type"] for e in fought["events"]]
    assert kinds[:2] == [P + "attack_resolved", P + "limit_checked"]
    assert fought["events"][1]["data"]["status_after"] == "severely_injured"
    await gm({"type": P + "spend_karma", "use": "difficulty", "target": "jonah"})
    await gm(attack("horror", "jonah", "claws"))
    await player("jonah", respond("jonah", "defend"), [2, 2, 2], [4, 5, 6])
    await player("jonah", {"type": P + "end_turn", "character": "jonah"})

    # Round 3: the Cultist bleeds. Mara spots the sigil, the difficulty behind the
    # screen; a Fast turn refuses a move after the action; the players' pool runs dry.
    await gm({"type": P + "begin_round"})
    for who, speed in (("mara", "fast"), ("jonah", "fast")):
        await player(who, turn(who, speed))
    await gm(turn("horror", "slow"))
    await gm(
        {
            "type": P + "call_check",
            "character": "mara",
            "label": "spotting the sigil",
            "trait": "perception",
            "difficulty": 2,
            "behind_screen": True,
        }
    )
    await player("mara", {"type": P + "roll_check", "character": "mara"}, [5, 3])
    secret = await gm({"type": P + "roll_difficulty", "character": "mara"}, [1, 3], hidden=True)
    roll = inner_events(secret["events"])[0]["data"]["rolls"][0]
    assert roll["hidden"] is True and roll["outcome"] == "success with Drawback"

    async def seen_by_player() -> tuple[str, str, str]:
        events = (
            await client.get(f"/encounters/{eid}/events", headers=bearer(tokens["mara"]))
        ).json()["events"]
        mine = next(e for e in events if e["type"] == "encounter.sealed")
        log = await client.get(f"/encounters/{eid}/log", headers=bearer(tokens["mara"]))
        line = next(e for e in log.json()["entries"] if e["type"] == "encounter.sealed")
        return str(mine), line["text"], str(line["rolls"])

    event_view, line, log_rolls = await seen_by_player()
    for text in (event_view, line, log_rolls):
        assert "success with Drawback" not in text and "'total'" not in text
        assert "Drawback" not in text
    assert line == (
        "The Narrator rolls the difficulty dice for Mara's spotting the sigil behind the screen"
        " (sealed as s1)"
    )
    # While it is sealed the players' commands wait for the Narrator (the difficulty roll
    # changes what they may do): the Narrator reveals it before play goes on.
    reveal = await client.post(
        f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [roll["roll_id"]]}
    )
    assert reveal.status_code == 200, reveal.text
    event_view, line, _ = await seen_by_player()
    assert "success with Drawback" in line and "success with Drawback" in event_view

    helpless = await player("mara", attack("mara", "cultist", "revolver"), [4, 3, 6, 3, 6])
    assert helpless["events"][1]["data"]["result"] == "miss"  # he cannot react: no dive
    refused = await player(
        "mara", {"type": P + "move", "character": "mara", "yards": 2}, expect=422
    )
    assert "a Fast turn allows an action or a move, not both" in refused["detail"]
    await player(
        "mara",
        {
            "type": P + "spend_karma",
            "by": "mara",
            "use": "deus_ex_machina",
            "note": "a lantern in her coat",
        },
    )
    await player("jonah", {"type": P + "spend_karma", "by": "jonah", "use": "bonus"})
    empty = await player(
        "mara", {"type": P + "spend_karma", "by": "mara", "use": "bonus"}, expect=422
    )
    assert "the players' karma pool is empty" in empty["detail"]

    # An undo: the GM takes back a mistaken ruling.
    before = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    await gm(
        {
            "type": P + "rule",
            "ruling": {
                "type": "set_condition",
                "character": "horror",
                "condition": "partial_cover",
            },
            "reason": "behind a pillar",
        }
    )
    undo = await client.post(f"/encounters/{eid}/undo", json={"reason": "wrong pillar"})
    assert undo.status_code == 200, undo.text
    assert (await client.get(f"/encounters/{eid}")).json()["state"]["game"] == before

    await gm({"type": P + "end_encounter"})

    game = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert game["karma_players"] == 0 and game["karma_narrator"] == 3
    assert game["characters"]["jonah"]["shaken"] is True
    assert game["characters"]["cultist"]["status"] == "severely_injured"
    assert game["characters"]["mara"]["damage"] == 9

    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    for expected in (
        "Encounter 'The flooded crypt' begins under the untold-aeons rules.",
        "Mara (investigator, investigators) joins: Dexterity 3, Toughness 3, Willpower 3, "
        "Intellect 3; Stress Limit 13, wound limit 13, Move 8 yards",
        "Round 1 begins: investigators initiate; everyone chooses a Fast or a Slow turn",
        "Turn order: Fast initiating: Jonah; then Fast defending: the Cultist; then Slow "
        "initiating: Mara; then Slow defending: the Horror",
        "Jonah spends a karma point for +2 on Jonah's roll (players 1, Narrator 2)",
        "Jonah rolls Firearms 2 -1 Rapid Fire +2 karma against difficulty 2 = 2 range (15 "
        "yards, weapon range 30) for the attack on the Horror: 6 6 1 vs 5 2 -> 4 successes, "
        "1 failure, 1 Advantage: success with Advantage: 3 hits",
        "Mara defends.",
        "The Cultist dives for cover. Mara rolls Firearms 3 against difficulty 3 = 2 range (10 "
        "yards, weapon range 20) +1 dive for cover (half of Dexterity 2, rounded up) for the "
        "attack on the Cultist: 6 5 1 vs 5 2 3 -> 3 successes, 1 failure, 1 Advantage",
        "Mara hits the Cultist (critical: 4 base + 3 successes = 7, -1 Toughness: 6)",
        "Mara dodges.",
        "Jonah is Shaken",
        "Jonah gains a hardened notch in Unnatural",
        "Mara fights back.",
        "The Cultist is above the wound limit (14 is 2 over 12)",
        "The Cultist is Severely Injured",
        "The Narrator spends a karma point for +2 difficulty on Jonah's roll",
        "Nothing happens",
        "The Cultist bleeds: 1 damage (total 15)",
        "The Narrator calls for spotting the sigil: Mara rolls Perception against difficulty 2, "
        "the difficulty dice behind the screen",
        "The Narrator rolls 2 difficulty dice for spotting the sigil against Perception 2",
        "success with Drawback",
        "The GM reveals the secret roll",
        "Mara spends a karma point for a deus ex machina: a lantern in her coat",
        "The GM undoes untold-aeons.rule",
        "The encounter ends in round 3",
    ):
        assert expected in log, expected


async def test_get_rulesets_untold_aeons_lists_commands_and_options(client: Client) -> None:
    info = (await client.get("/rulesets/untold-aeons")).json()
    options = {o["key"]: o for o in info["options"]}
    assert options["fast_turn_allows"]["default"] == "action_or_move"
    assert "UAE-A1" in options["fast_turn_allows"]["description"]
    commands = {c["type"] for c in info["commands"]}
    assert {P + "attack", P + "respond", P + "roll_difficulty", P + "spend_karma"} <= commands
