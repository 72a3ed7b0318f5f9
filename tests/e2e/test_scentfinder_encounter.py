"""A four-round Scentfinder fight over HTTP: three areas, two PCs played with player
tokens, three NPCs; initiative phases, Delay, a Flank, a Hide/Seek chain, a sustained
spell, a Save against hazardous terrain, an undo of a wrong degree and its re-entry,
a secret GM roll; the replay log read back as a GM announcing the fight."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, command, create


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _area(ident: str, name: str, **more: Any) -> dict[str, Any]:
    return {"type": "scentfinder.define_area", "id": ident, "name": name, **more}


def _add(ident: str, **sheet: Any) -> dict[str, Any]:
    return {"type": "scentfinder.add_combatant", "id": ident, "name": ident.title(), **sheet}


def _act(actor: str, action: str, **more: Any) -> dict[str, Any]:
    return {"type": "scentfinder.act", "actor": actor, "action": action, **more}


def _end(who: str) -> dict[str, Any]:
    return {"type": "scentfinder.end_turn", "combatant": who}


def _resolve(degree: str, **more: Any) -> dict[str, Any]:
    return {"type": "scentfinder.resolve", "degree": degree, **more}


async def test_four_rounds_of_scentfinder_over_http(client: Client) -> None:
    eid = await create(client, "The Rope Bridge", ruleset="scentfinder")

    async def gm(cmd: dict[str, Any], *faces: int, expect: int = 200) -> dict[str, Any]:
        manual = [[f] for f in faces] if faces else None
        return await command(client, eid, cmd, manual=manual, expect=expect)

    for area in (
        _area("camp", "the Camp", cover=True),
        _area("bridge", "the Rope Bridge", adjacent=["camp"], hazard={"save": "REF", "die": "1d4"}),
        _area("ridge", "the Ridge", adjacent=["bridge"], cover=True),
    ):
        await gm(area)
    await gm(
        _add(
            "mara",
            hp=12,
            fp=2,
            max_fp=3,
            weapons={"staff": {"damage": "1d6", "skill": "Might"}},
            spells={"Binding Vines": {"actions": 2, "fp": 1, "damage": "1d4", "range": 1}},
            magic_skill="Arcana",
            refocus_skill="Focus",
            area="camp",
        )
    )
    await gm(
        _add(
            "tobin",
            hp=16,
            weapons={"sword": {"damage": "1d8", "skill": "Might"}},
            held=["sword"],
            area="camp",
        )
    )
    await gm(
        _add(
            "chief",
            pc=False,
            side="bandits",
            hp=18,
            weapons={"axe": {"damage": "1d10"}},
            held=["axe"],
            area="bridge",
            phase=3,
        )
    )
    await gm(
        _add(
            "thug",
            pc=False,
            side="bandits",
            hp=10,
            weapons={"club": {"damage": "1d6"}},
            held=["club"],
            area="bridge",
            phase=3,
        )
    )
    bow = {"damage": "1d6", "skill": "Dexterity", "melee": False, "range": 2}
    await gm(
        _add(
            "archer",
            pc=False,
            side="bandits",
            hp=8,
            weapons={"bow": bow},
            held=["bow"],
            area="ridge",
            phase=4,
        )
    )

    tokens = {}
    for who in ("mara", "tobin"):
        minted = await client.post(
            f"/encounters/{eid}/tokens", json={"combatants": [who], "label": who}
        )
        assert minted.status_code == 201, minted.text
        tokens[who] = bearer(minted.json()["token"])

    async def player(who: str, cmd: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return await command(client, eid, cmd, headers=tokens[who], expect=expect)

    await gm(
        {
            "type": "scentfinder.initiative",
            "entries": [
                {"combatant": "tobin", "degree": "triumph", "value": 8, "start_area": "bridge"},
                {"combatant": "mara", "degree": "success", "value": 4},
            ],
        }
    )
    begun = await gm({"type": "scentfinder.begin"})
    assert begun["events"][0]["data"]["order"] == ["tobin", "mara", "chief", "thug", "archer"]

    # Round 1. Tobin (phase 1) strikes the Chief; the GM enters a wrong degree, undoes it
    # and enters the right one.
    await player("tobin", _act("tobin", "strike", target="chief", weapon="sword"))
    await player("tobin", _resolve("success"), expect=403)  # degrees are the GM's
    await player("mara", _act("tobin", "evade"), expect=403)  # not Mara's character
    await gm(_resolve("failure"))
    undo = await client.post(f"/encounters/{eid}/undo", json={"reason": "wrong degree"})
    assert undo.status_code == 200, undo.text
    hit = await gm(_resolve("success"), 5)
    assert hit["events"][0]["data"]["hp_after"] == 13
    refused = await player(
        "tobin", _act("tobin", "strike", target="thug", weapon="sword"), expect=422
    )
    assert "Tobin already attacked with Might this turn" in str(refused)
    await player("tobin", _end("tobin"))

    # Mara delays to phase 3 for good, then crosses onto the hazardous bridge and binds the Thug.
    await player("mara", {"type": "scentfinder.delay", "combatant": "mara", "phase": 3})
    await player("mara", _act("mara", "shift", area="bridge"))
    await gm({"type": "scentfinder.save", "combatant": "mara", "degree": "success"}, 3)
    await player("mara", _act("mara", "cast_spell", spell="Binding Vines", target="thug"))
    await gm(_resolve("success"), 3)
    await player("mara", _end("mara"))
    await gm(_act("chief", "strike", target="tobin", weapon="axe", degree="success"), 6)
    await gm(_end("chief"))
    await gm(_act("thug", "strike", target="mara", weapon="club", degree="failure"))
    await gm(_end("thug"))
    await gm(_act("archer", "strike", target="tobin", weapon="bow", degree="bungle"))
    await gm(_end("archer"))

    # Round 2. Tobin flanks the Thug beside Mara and strikes; Mara sustains her spell,
    # goes back to camp (triumph on the Save) and hides; the Archer must Seek her.
    await player("tobin", _act("tobin", "flank", target="thug"))
    await gm(_resolve("triumph"))
    await player("tobin", _act("tobin", "strike", target="thug", weapon="sword"))
    await gm(_resolve("success"), 4)
    await player("tobin", _end("tobin"))
    await player("mara", _act("mara", "sustain_spell", spell="Binding Vines"))
    await player("mara", _act("mara", "shift", area="camp"))
    await gm({"type": "scentfinder.save", "combatant": "mara", "degree": "triumph"})
    await player("mara", _act("mara", "hide"))
    await gm(_resolve("success"))
    await player("mara", _end("mara"))
    await gm(_act("chief", "strike", target="tobin", weapon="axe", degree="failure"))
    await gm(_end("chief"))
    sustained = await gm(_end("thug"))
    assert sustained["events"][0]["data"]["skipped"]
    hidden = await gm(_act("archer", "strike", target="mara", weapon="bow"), expect=422)
    assert "Mara is Hiding" in str(hidden)
    await gm(_act("archer", "seek", area="camp", degree="success"))
    await gm(_act("archer", "strike", target="mara", weapon="bow", degree="success"), 2)
    await gm(_end("archer"))

    # Round 3. Tobin fells the Thug; Mara refocuses; the Chief intimidates Tobin; the GM
    # rolls the Archer's nerve in secret.
    await player("tobin", _act("tobin", "strike", target="thug", weapon="sword"))
    await gm(_resolve("triumph"))
    await gm(
        {
            "type": "scentfinder.adjudicate",
            "reason": "the thug drops",
            "combatant": "thug",
            "deaths_door": True,
        }
    )
    await player("tobin", _end("tobin"))
    await player("mara", _act("mara", "refocus"))
    await gm(_resolve("success"))
    await player("mara", _end("mara"))
    await gm(_act("chief", "intimidate", target="tobin", degree="success"))
    await gm(_end("chief"))
    await gm(_end("thug"))
    secret = await client.post(
        f"/encounters/{eid}/commands",
        json={
            "command": {
                "type": "scentfinder.gm_roll",
                "label": "the archer's nerve",
                "notation": "1d20",
            },
            "hidden": True,
            "manual_dice": [[17]],
        },
    )
    assert secret.status_code == 200, secret.text
    await gm(_end("archer"))

    # Round 4. Tobin, Intimidated, strikes first (no action lost).
    struck = await player("tobin", _act("tobin", "strike", target="chief", weapon="sword"))
    assert struck["events"][0]["data"]["lost_action"] is False
    await gm(_resolve("success"), 7)
    await player("tobin", _end("tobin"))
    await player("mara", _end("mara"))
    await gm(_end("chief"))
    await gm(_end("thug"))
    await gm({"type": "scentfinder.end_combat"})  # the Archer flees instead of acting

    game = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert game["combatants"]["chief"]["hp"] == 6
    assert game["combatants"]["thug"]["hp"] == -5  # 10 - 3 vines - 4 - 8 (a maximised 1d8)
    assert game["combatants"]["mara"]["fp"] == 1
    assert game["combatants"]["mara"]["phase"] == 3

    # The secret roll: players see neither its total nor its faces.
    events = (await client.get(f"/encounters/{eid}/events", headers=tokens["tobin"])).json()[
        "events"
    ]
    rolled = next(e for e in events if e["type"] == "encounter.sealed")
    assert "events" not in rolled["data"] and "total" not in str(rolled["data"])
    player_log = (await client.get(f"/encounters/{eid}/log", headers=tokens["tobin"])).json()[
        "entries"
    ]
    entry = next(e for e in player_log if e["type"] == "encounter.sealed")
    assert "17" not in entry["text"] and "total" not in entry["rolls"][0]

    response = await client.get(f"/encounters/{eid}/log.txt")
    assert response.status_code == 200
    log = response.text
    for line in (
        "The battlefield has an area: the Rope Bridge, hazardous (REF Save, 1d4); next"
        " to the Camp.",
        "Tobin's Perception for initiative: Triumph (8), acting in phase 1, starting one"
        " area away in the Rope Bridge.",
        "Combat begins! Turn order: Tobin, Mara, Chief, Thug, Archer.",
        "Round 1, phase 1: Tobin's turn, 3 actions and 1 reaction.",
        "Tobin uses Strike on Chief with the sword (Might vs REF), spending 1 action.",
        "Success for Tobin's Strike: rolled damage - 1d8 [5] = 5 (manual), 5 damage"
        " (Chief 18 -> 13 HP).",
        "Mara delays from phase 2 to phase 3, for the rest of the combat: the turn does not "
        "happen now, and the 3 actions & a reaction come when it does in phase 3; before "
        "that first turn they have no reaction.",
        "The Rope Bridge is hazardous: Mara must make a REF Save against 1d4.",
        "Mara's REF Save against hazardous terrain: Success, halves the die: 1d4 [3] = 3"
        " (manual), 1 damage, 12 -> 11 HP.",
        "Thug is under Mara's Binding Vines (2 turns, can be sustained).",
        "Tobin: attacks against Thug Favoured (circumstance, 1 turn, ignores 1 Impairment).",
        "Mara now has 0 FP (Sustain Spell).",
        "Thug ends their turn: Mara's Binding Vines sustained, no count-down.",
        "Mara is Hiding.",
        "Archer has Successfully Sought the Camp this turn.",
        "Failure for Thug's Strike: 1 damage (Mara 11 -> 10 HP).",
        "The GM undoes scentfinder.resolve (#17). Reason: wrong degree",
        "Archer is able to target a Hiding enemy (can target Mara).",
        "Tobin is Intimidated (on their next turn).",
        "The fight ends in round 4.",
    ):
        assert line in log, line
    assert "Failure for Tobin's Strike" in log  # the undone line stays in the record


async def test_get_rulesets_scentfinder_lists_commands_and_options(client: Client) -> None:
    info = (await client.get("/rulesets/scentfinder")).json()
    options = {o["key"]: o for o in info["options"]}
    assert options["degree_input"]["default"] == "gm_entered"
    assert "SCF-A1" in options["degree_input"]["description"]
    assert options["focus_maximum"]["default"] == "sheet_only"
    assert "SCF-A20" in options["focus_maximum"]["description"]
    commands = {c["type"] for c in info["commands"]}
    assert {"scentfinder.act", "scentfinder.resolve", "scentfinder.end_turn"} <= commands
    assert all(c["example"]["type"] == c["type"] for c in info["commands"])
