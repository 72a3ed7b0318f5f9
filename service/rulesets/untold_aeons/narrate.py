"""``narrate``: one line of the replay log per event, the way the Narrator announces it,
given the state before the event. Pool rolls are spoken by ``service.dice.pool``
("Mara rolls Firearms 3 against difficulty 2: 6 5 1 vs 5 2 -> 3 successes, 1 failure,
1 Advantage: success with Advantage"). An event whose rolls are still secret is told by
``narrate_secret`` from the fields players may see (``view.SHOWN_WHEN_SECRET``).
"""

from __future__ import annotations

from typing import assert_never

from service.dice.model import RollRecord
from service.health_text import health_part
from service.ruleset import rolls_of
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.narrate_parts import (
    CONDITIONS,
    Names,
    capital,
    karma_line,
    limit_line,
    resolved_line,
    rolls_line,
    stress_part,
    wounds_part,
)
from service.rulesets.untold_aeons.narrate_secret import secret_line
from service.rulesets.untold_aeons.rolls import spoken_parts, title
from service.rulesets.untold_aeons.state import State

_STATUS = {
    "active": "back in the fight",
    "severely_injured": "Severely Injured",
    "broken": "broken (temporarily insane or unconscious)",
    "dead": "dead",
}


def narrate(state: State, event: ev.Event) -> str:
    rolls: tuple[RollRecord, ...] = rolls_of(event)
    if any(r.hidden for r in rolls):
        return narrate_secret(state, event)
    return capital(_narrate(state, event))


def _narrate(state: State, event: ev.Event) -> str:
    n = Names(state)
    match event:
        case ev.CharacterAdded():
            skills = ", ".join(f"{title(k)} {v}" for k, v in event.skills.items())
            weapons = ", ".join(event.weapons) or "bare hands"
            kind = "investigator" if event.pc else "NPC"
            who = event.character
            # Toughness and Willpower give the wound and Stress Limits away (UAE-02).
            return (
                f"{event.name} ({kind}, {event.side}) joins: Dexterity {event.dexterity}"
                + health_part(who, f", Toughness {event.toughness}, Willpower {event.willpower}")
                + f", Intellect {event.intellect}"
                + health_part(
                    who,
                    f"; Stress Limit {event.stress_limit}, wound limit {event.wound_limit}",
                )
                + f", Move {event.move_speed} yards"
                + (f"; {skills}" if skills else "")
                + f"; armed with {weapons}"
                + _starting(event)
                + (f". Players' karma pool: {event.karma_players}" if event.pc else "")
            )
        case ev.DistanceSet():
            where = "point blank" if event.point_blank else f"{event.yards} yards"
            return f"The Narrator: {n(event.a)} and {n(event.b)} are {where} apart"
        case ev.RoundStarted():
            how = (
                "everyone chooses a Fast or a Slow turn"
                if event.choosing
                else "everyone keeps their turn type"
            )
            return f"Round {event.round} begins: {event.initiating_side} initiate; {how}"
        case ev.TurnChosen():
            return f"{n(event.character)} takes a {event.speed.title()} turn"
        case ev.TurnsOrdered():
            slots = "; then ".join(
                f"{s.speed.title()} {'initiating' if s.initiating else 'defending'}: "
                + ", ".join(n(c) for c in s.characters)
                for s in event.slots
            )
            return f"Turn order: {slots}"
        case ev.Moved():
            how = "sprints" if event.sprint else "runs" if event.run else "moves"
            return f"{n(event.character)} {how} {event.yards} yards (up to {event.limit})"
        case ev.StoodUp():
            return f"{n(event.character)} gets up from prone, spending the action"
        case ev.TurnEnded():
            return f"{n(event.character)}'s turn ends"
        case ev.AttackDeclared():
            if event.ranged:
                parts = spoken_parts([(m.label, m.value) for m in event.modifiers])
                return (
                    f"{n(event.attacker)} fires the {event.weapon} at {n(event.target)}"
                    f"{_burst(state, event)}: difficulty {event.difficulty}"
                    + (f" = {parts}" if parts else "")
                )
            return f"{n(event.attacker)} attacks {n(event.target)} with the {event.weapon}"
        case ev.AttackResolved():
            return resolved_line(n, event)
        case ev.LimitChecked():
            return limit_line(n, event)
        case ev.Bled():
            total = wounds_part(state, event.character, event.damage_after, " (total {})")
            return f"{n(event.character)} bleeds: 1 damage{total}"
        case ev.CheckCalled():
            trait = title(event.trait)
            if event.knowledge_for:
                trait += f" for {title(event.knowledge_for)} (2 penalty dice)"
            screen = ", the difficulty dice behind the screen" if event.behind_screen else ""
            return (
                f"The Narrator calls for {event.label}: {n(event.character)} rolls {trait} "
                f"against difficulty {event.difficulty}{screen}"
            )
        case ev.CheckRolled():
            return rolls_line(n, event.rolls)
        case ev.SkillDiceRolled():
            return rolls_line(n, event.rolls) + "; the Narrator's difficulty dice are to come"
        case ev.DifficultyRolled():
            return rolls_line(n, event.rolls)
        case ev.CheckRerolled():
            return f"{n(event.character)} rerolls: " + rolls_line(n, event.rolls)
        case ev.RollRerolled():
            return (
                f"{n(event.character)} rerolls their dice of {event.label}: "
                + rolls_line(n, event.rolls)
                + f". Decided again: {event.result}"
            )
        case ev.SanityChecked():
            how = (
                f"difficulty {event.difficulty}"
                if event.succeeded
                else f"difficulty {event.difficulty} + failures"
            )
            hard = f" - hardened {event.hardened}" if event.hardened else ""
            pool = event.rolls[0].pool if event.rolls else None
            effect = ""
            if pool is not None and (pool.net_advantages or pool.net_drawbacks):
                kind = "Advantage" if pool.net_advantages else "Drawback"
                effect = (
                    f". The {kind} is amplified and longer-lasting, {n(event.character)} "
                    "being Shaken: the Narrator rules on it"
                    if event.amplified
                    else f". The {kind} brings a short-term effect for 1 round: the Narrator "
                    "rules on it"
                )
            return (
                f"Sanity check ({event.category}) for {n(event.character)}, {event.cause}: "
                + rolls_line(n, event.rolls)
                + f". Stress +{event.gained} ({how} = {event.computed}{hard})"
                + stress_part(state, event.character, event.stress_after, ", now {}")
                + effect
            )
        case ev.NotchGained():
            return (
                f"{n(event.character)} gains a hardened notch in {event.category.title()}: "
                f"level {event.level}, {event.notches} notch{'es' if event.notches != 1 else ''}"
            )
        case ev.KarmaSpent():
            return karma_line(n, event)
        case ev.Recovered():
            what = "stress" if event.track == "stress" else "wounds"
            half = " (above the limit: half the successes)" if event.halved else ""
            return (
                rolls_line(n, event.rolls)
                + f". {n(event.character)} recovers {event.amount} {what}{half}"
                + (stress_part if event.track == "stress" else wounds_part)(
                    state, event.character, event.after, ": now {}"
                )
                + (
                    "; no longer Shaken"
                    if event.track == "stress"
                    and not event.shaken_after
                    and _was_shaken(state, event.character)
                    else ""
                )
            )
        case ev.Advanced():
            src = f" (source: {event.source})" if event.source else ""
            return (
                f"{n(event.character)} raises {title(event.trait)} {event.previous} -> "
                f"{event.value} for {event.cost} xp{src}; {event.xp_after} xp left"
            )
        case ev.ValueSet():
            who = f"{n(event.character)}'s " if event.character else ""
            field = event.field.replace("_", " ")
            change = f" {event.previous} -> {event.value}"
            if event.character is not None and event.field in ("damage", "stress"):
                track = wounds_part if event.field == "damage" else stress_part
                template = f" {event.previous} -> {{}}"
                change = track(state, event.character, event.value, template, ": {}")
            return (
                f"The Narrator rules: {who}{field}{change}"
                + ("; no longer Shaken" if event.shaken_after is False else "")
                + f" ({event.reason})"
            )
        case ev.ConditionSet():
            cond = CONDITIONS[event.condition]
            verb = "is now" if event.on else "is no longer"
            return f"The Narrator rules: {n(event.character)} {verb} {cond} ({event.reason})"
        case ev.StatusSet():
            before = state.characters.get(event.character)
            if before is not None and before.shaken != event.shaken:
                word = "is Shaken" if event.shaken else "is no longer Shaken"
            else:
                word = f"is {_STATUS[event.status]}"
            return f"The Narrator rules: {n(event.character)} {word} ({event.reason})"
        case ev.EffectRuled():
            return f"The Narrator rules for {n(event.character)}: {event.effect} ({event.reason})"
        case ev.EncounterEnded():
            return (
                f"The encounter ends in round {event.round}"
                if event.round
                else "The encounter ends"
            )
        case _:
            assert_never(event)


def _starting(event: ev.CharacterAdded) -> str:
    """What a character joining mid-story already carries.  Stress and damage are tracks
    against the limits, so they are health and follow npc_health."""
    tracks = ", ".join(
        f"{amount} {track}"
        for amount, track in ((event.stress, "stress"), (event.damage, "damage"))
        if amount
    )
    hardened = ", ".join(
        f"hardened {category.title()} {h.level} ({h.notches} notch{'es' if h.notches != 1 else ''})"
        for category, h in event.hardened.items()
    )
    if not tracks:
        return f"; starts with {hardened}" if hardened else ""
    if not hardened:
        return health_part(event.character, f"; starts with {tracks}")
    return "; starts with " + health_part(event.character, f"{tracks}, ") + hardened


def _burst(state: State, event: ev.AttackDeclared) -> str:
    """UAE-34: a burst costs a penalty die and hits up to N times."""
    if not event.rapid_fire:
        return ""
    shooter = state.characters.get(event.attacker)
    weapon = shooter.weapon(event.weapon) if shooter else None
    most = f", up to {weapon.rapid_fire} hits" if weapon and weapon.rapid_fire else ""
    dice = state.options.rapid_fire_penalty_dice
    return f" with a Rapid Fire burst ({dice} penalty {'die' if dice == 1 else 'dice'}{most})"


def _was_shaken(state: State, ident: str) -> bool:
    who = state.characters.get(ident)
    return who is not None and who.shaken


def narrate_secret(state: State, event: ev.Event) -> str:
    """What players read while the event is secret: who and what, from the fields
    ``view.SHOWN_WHEN_SECRET`` shows, without any number (a round, yards, a value could
    be mistaken for a face or a total) and never the Narrator's own line, also for the
    events of a secret command that no roll decided."""
    return capital(secret_line(state, event))
