"""Setting the table and the round: characters, distances, rounds, Fast and Slow turns,
moving, getting up, ending a turn, bleeding."""

from __future__ import annotations

import msgspec

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.commands import (
    AddCharacter,
    BeginRound,
    Bleed,
    ChooseTurn,
    EndTurn,
    Move,
    SetDistance,
    StandUp,
)
from service.rulesets.untold_aeons.limits import wound_checks
from service.rulesets.untold_aeons.rules import (
    able,
    acting,
    character,
    check_action,
    check_move,
    chooser_ids,
    order_slots,
    turn_over_after,
    waiting,
)
from service.rulesets.untold_aeons.state import CHARACTERISTICS, Character, State


def add_character(state: State, command: AddCharacter) -> tuple[ev.Event, ...]:
    if command.id in state.characters:
        raise RuleViolation(f"there is already a character '{command.id}'")
    values = {k: getattr(command, k) for k in CHARACTERISTICS}
    points = state.options.creation_points
    if command.pc and points is not None:
        outside = [k for k, v in values.items() if not 1 <= v <= 5]
        if outside:
            raise RuleViolation(
                f"characteristics are 1-5: {command.name}'s {', '.join(outside)} is not",
                rule="UAE-01",
            )
        total = sum(values.values())
        if total != points:
            raise RuleViolation(
                f"an investigator distributes {points} points between the 4 characteristics; "
                f"{command.name} has {total}",
                rule="UAE-01",
            )
    for name, weapon in command.weapons.items():
        if weapon.range is not None and weapon.range < 1:
            raise RuleViolation(f"the {name}'s range must be at least 1 yard")
        if weapon.rapid_fire is not None and weapon.rapid_fire < 1:
            raise RuleViolation(f"the {name}'s Rapid Fire N must be at least 1")
    for category, hardened in command.hardened.items():
        if hardened.level < 0 or not 0 <= hardened.notches <= 2:
            raise RuleViolation(
                f"{command.name}'s hardened {category.title()} has level {hardened.level} and "
                f"{hardened.notches} notches: a level is 0 or more and three notches raise it "
                "by 1, so notches are 0 to 2",
                rule="UAE-20",
            )
    return (
        ev.CharacterAdded(
            character=command.id,
            name=command.name,
            side=command.side,
            pc=command.pc,
            skills=dict(command.skills),
            weapons=dict(command.weapons),
            stress_limit=10 + command.willpower,
            wound_limit=10 + command.toughness,
            move_speed=5 + command.dexterity,
            xp=state.options.starting_xp,
            stress=command.stress,
            damage=command.damage,
            hardened={k: v for k, v in command.hardened.items() if v.level or v.notches},
            karma_players=state.karma_players + (1 if command.pc else 0),
            **values,
        ),
    )


def set_distance(state: State, command: SetDistance) -> tuple[ev.Event, ...]:
    a, b = character(state, command.a), character(state, command.b)
    if a.id == b.id:
        raise RuleViolation("a distance is between two different characters")
    return (ev.DistanceSet(a=a.id, b=b.id, yards=command.yards, point_blank=command.point_blank),)


def begin_round(state: State, command: BeginRound, dice: Dice) -> tuple[ev.Event, ...]:
    if state.pending is not None:
        raise RuleViolation("an attack is still waiting for its defence")
    if state.phase == "choosing":
        raise RuleViolation(f"round {state.round} has not finished choosing turns")
    left = waiting(state)
    if state.phase == "acting" and left:
        names = ", ".join(state.characters[c].name for c in left)
        raise RuleViolation(f"round {state.round} is not over: {names} still to act")
    side = command.initiating_side or state.initiating_side
    if side is None:
        raise RuleViolation(
            "round 1 needs the initiating side: generally the side that starts the fight "
            "goes first",
            rule="UAE-27",
        )
    if not any(c.side == side for c in state.characters.values()):
        raise RuleViolation(f"no character is on the side '{side}'")
    number = (state.round or 0) + 1
    keep = state.options.turn_type_choice == "once" and number > 1
    events: list[ev.Event] = [
        ev.RoundStarted(round=number, initiating_side=side, choosing=not keep)
    ]
    if state.options.severe_bleed_interval == "round":
        for who in state.characters.values():
            if who.status == "severely_injured" and not who.has("medical_care"):
                events.append(ev.Bled(character=who.id, damage_after=who.damage + 1))
                bled = _with_damage(who, who.damage + 1)
                events.extend(wound_checks(state, bled, dice))
    if keep:
        turns = {c: s for c, s in state.turns.items() if state.characters[c].can_act}
        events.append(ev.TurnsOrdered(slots=order_slots(state, turns, side)))
    return tuple(events)


def _with_damage(who: Character, damage: int) -> Character:
    return msgspec.structs.replace(who, damage=damage)


def choose_turn(state: State, command: ChooseTurn) -> tuple[ev.Event, ...]:
    who = able(state, command.character)
    if state.phase != "choosing":
        raise RuleViolation(
            "turn types are chosen at the start of a round"
            + (" (kept from round 1: turn_type_choice is once)" if state.round else ""),
            rule="UAE-A2",
        )
    if who.id in state.turns:
        raise RuleViolation(
            f"{who.name} has already chosen a {state.turns[who.id].title()} turn this round"
        )
    turns = {**state.turns, who.id: command.speed}
    events: list[ev.Event] = [ev.TurnChosen(character=who.id, speed=command.speed)]
    if all(c in turns for c in chooser_ids(state)):
        assert state.initiating_side is not None
        events.append(ev.TurnsOrdered(slots=order_slots(state, turns, state.initiating_side)))
    return tuple(events)


def move(state: State, command: Move) -> tuple[ev.Event, ...]:
    who = acting(state, command.character, "move")
    if who.has("prone"):
        raise RuleViolation(f"{who.name} is prone: getting up takes an action", rule="UAE-33")
    if command.sprint and command.run:
        raise RuleViolation("a character runs or sprints, not both", rule="UAE-02")
    pace = "sprint" if command.sprint else "run" if command.run else "walk"
    if pace != "walk":
        if who.id in state.used_action or who.id in state.used_move:
            raise RuleViolation(
                f"a {'sprint' if command.sprint else 'sustained run'} takes the whole turn: "
                "walking is the pace of a character busy fighting / shooting",
                rule="UAE-02",
            )
        multiple = state.options.sprint_multiple if command.sprint else state.options.run_multiple
        limit = who.move_speed * multiple
    else:
        check_move(state, who)
        limit = who.move_speed
    if command.yards > limit:
        what = {"walk": "moves", "run": "runs", "sprint": "sprints"}[pace]
        raise RuleViolation(
            f"{who.name} {what} at most {limit} yards a round (Move Speed {who.move_speed})",
            rule="UAE-02",
        )
    events: list[ev.Event] = [
        ev.Moved(
            character=who.id,
            yards=command.yards,
            sprint=command.sprint,
            run=command.run,
            limit=limit,
        )
    ]
    if pace != "walk" or turn_over_after(state, who.id, action=False, move=True):
        events.append(ev.TurnEnded(character=who.id))
    return tuple(events)


def stand_up(state: State, command: StandUp) -> tuple[ev.Event, ...]:
    who = acting(state, command.character, "action")
    if not who.has("prone"):
        raise RuleViolation(f"{who.name} is not prone")
    check_action(state, who)
    events: list[ev.Event] = [ev.StoodUp(character=who.id)]
    if turn_over_after(state, who.id, action=True, move=False):
        events.append(ev.TurnEnded(character=who.id))
    return tuple(events)


def end_turn(state: State, command: EndTurn) -> tuple[ev.Event, ...]:
    who = acting(state, command.character)
    return (ev.TurnEnded(character=who.id),)


def bleed(state: State, command: Bleed, dice: Dice) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    if who.status != "severely_injured":
        raise RuleViolation(f"{who.name} is not Severely Injured", rule="UAE-22")
    if who.has("medical_care"):
        raise RuleViolation(f"{who.name} has medical care and no longer bleeds", rule="UAE-22")
    return (
        ev.Bled(character=who.id, damage_after=who.damage + 1),
        *wound_checks(state, _with_damage(who, who.damage + 1), dice),
    )
