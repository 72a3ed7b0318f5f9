"""Initiative entered one combatant at a time, as the dice land, in every
ruleset of this helper's scope: generic, scentfinder, tactics and untold-aeons (aeonisk
and aeonis have their own tests)."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, combatant, command, create


async def test_generic_rolls_arrive_one_by_one_and_the_last_starts_round_1(
    client: Client,
) -> None:
    eid = await create(client)
    for who in ("alice", "bob", "goblin"):
        await command(client, eid, combatant(who, 10))

    def roll(who: str) -> dict[str, Any]:
        return {"type": "generic.roll_initiative", "combatants": [who], "wait_for_all": True}

    # The client does not know the notation: dice_needed tells it which die to ask for.
    short = await client.post(
        f"/encounters/{eid}/commands", json={"command": roll("bob"), "manual_dice": []}
    )
    assert short.json()["dice_needed"]["dice"] == [20]
    assert short.json()["dice_needed"]["roller"] == "bob"
    first = await command(client, eid, roll("bob"), manual=[[11]])
    assert [e["type"] for e in first["events"]] == ["generic.initiative_rolled"]
    await command(client, eid, roll("goblin"), manual=[[16]])
    state = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert state["phase"] == {"type": "setup"}  # still waiting for Alice
    last = await command(client, eid, roll("alice"), manual=[[3]])
    assert [e["type"] for e in last["events"]] == [
        "generic.initiative_rolled",
        "generic.round_started",
    ]
    order = [e["combatant"] for e in last["events"][0]["data"]["order"]]
    assert order == ["goblin", "bob", "alice"]
    assert last["events"][1]["data"]["combatant"] == "goblin"
    log = (await client.get(f"/encounters/{eid}/log")).json()["entries"]
    assert "waiting for Alice, Goblin to roll" in log[-4]["text"]


async def test_scentfinder_initiative_is_entered_per_combatant_then_begun(
    client: Client,
) -> None:
    eid = await create(client, ruleset="scentfinder")
    await command(client, eid, {"type": "scentfinder.define_area", "id": "camp", "name": "Camp"})
    for ident, more in (
        ("mara", {}),
        ("tobin", {}),
        ("thug", {"pc": False, "phase": 3}),
    ):
        add = {"type": "scentfinder.add_combatant", "id": ident, "name": ident.title()}
        await command(client, eid, {**add, "hp": 10, "area": "camp", **more})

    def entry(**fields: Any) -> dict[str, Any]:
        return {"type": "scentfinder.initiative", "entries": [fields]}

    await command(client, eid, entry(combatant="mara", degree="success", value=4))
    await command(client, eid, entry(combatant="tobin", degree="triumph", value=9))
    begun = await command(client, eid, {"type": "scentfinder.begin"})
    assert begun["events"][0]["data"]["order"] == ["tobin", "mara", "thug"]


async def test_tactics_turn_order_is_placed_one_creature_at_a_time(client: Client) -> None:
    eid = await create(client, ruleset="tactics", options={"press_penalty_step": 2})
    await command(client, eid, {"type": "tactics.add_zone", "id": "plaza", "links": []})
    for ident in ("rex", "ana", "brute"):
        add = {"type": "tactics.add_combatant", "id": ident, "name": ident.title()}
        await command(client, eid, {**add, "zone": "plaza", "weapons": {}})

    def place(who: str) -> dict[str, Any]:
        return {"type": "tactics.set_turn_order", "order": [who], "append": True}

    await command(client, eid, place("ana"))
    await command(client, eid, place("brute"))
    twice = await command(client, eid, place("ana"), expect=422)
    assert "Ana appears twice in the turn order" in twice["detail"]
    placed = await command(client, eid, place("rex"))
    assert placed["events"][0]["data"]["order"] == ["ana", "brute", "rex"]
    started = await command(client, eid, {"type": "tactics.start_combat"})
    assert started["events"][-1]["data"]["combatant"] == "ana", started["events"]


async def test_untold_aeons_turns_are_chosen_one_character_at_a_time(client: Client) -> None:
    eid = await create(client, ruleset="untold-aeons")
    p = "untold-aeons."
    for ident, side, pc in (
        ("mara", "investigators", True),
        ("jonah", "investigators", True),
        ("cultist", "cultists", False),
    ):
        sheet = {"dexterity": 3, "toughness": 3, "willpower": 3, "intellect": 3}
        add = {"type": p + "add_character", "id": ident, "name": ident.title()}
        await command(client, eid, {**add, "side": side, "pc": pc, **sheet})
    await command(client, eid, {"type": p + "begin_round", "initiating_side": "investigators"})
    answers = []
    for who, speed in (("mara", "slow"), ("cultist", "fast"), ("jonah", "fast")):
        choice = {"type": p + "choose_turn", "character": who, "speed": speed}
        answers.append(await command(client, eid, choice))
    # Each choice is its own command; the last one announces the order of the round.
    kinds = [[e["type"] for e in a["events"]] for a in answers]
    chosen, ordered = p + "turn_chosen", p + "turns_ordered"
    assert kinds == [[chosen], [chosen], [chosen, ordered]]
    slots = answers[-1]["events"][-1]["data"]["slots"]
    assert [(s["speed"], s["characters"]) for s in slots] == [
        ("fast", ["jonah"]),
        ("fast", ["cultist"]),
        ("slow", ["mara"]),
    ]
