"""``narrate``: one line of the replay log per event, the way the Narrator announces it,
given the state before the event. Pool rolls are spoken by ``service.dice.pool``
("Mara rolls Firearms 3 against difficulty 2: 6 5 1 vs 5 2 -> 3 successes, 1 failure,
1 Advantage: success with Advantage"). An event whose rolls are still secret is told by
``narrate_secret`` from the fields players may see (``view.SHOWN_WHEN_SECRET``).
"""

from __future__ import annotations

import re
from typing import assert_never

from service.dice.announce import announce
from service.dice.model import RollRecord
from service.ruleset import rolls_of
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.rolls import title
from service.rulesets.untold_aeons.state import State

_RESPONSES = {
    "dodge": "dodges",
    "defend": "defends",
    "fight_back": "fights back",
    "dive": "dives for cover",
    "none": "does not react",
}
_CONDITIONS = {
    "prone": "prone",
    "moving": "a moving target",
    "partial_cover": "in partial cover",
    "unaware": "unaware of the shooter",
    "medical_care": "under medical care",
}
_STATUS = {
    "active": "back in the fight",
    "severely_injured": "Severely Injured",
    "broken": "broken (temporarily insane or unconscious)",
    "dead": "dead",
}


class _Names:
    def __init__(self, state: State) -> None:
        self.state = state

    def __call__(self, ident: str | None) -> str:
        if ident is None:
            return "The Narrator"
        who = self.state.characters.get(ident)
        return who.name if who else ident


def _rolls(n: _Names, rolls: tuple[RollRecord, ...]) -> str:
    line = "; ".join(announce(r, name=n(r.roller)) for r in rolls)
    shaken = [
        n(r.roller)
        for r in rolls
        if r.pool is not None
        and r.pool.net_drawbacks
        and r.roller in n.state.characters
        and n.state.characters[r.roller].shaken
    ]
    if shaken:  # UAE-17
        line += (
            f" ({', '.join(shaken)} is Shaken: the Narrator may let the Drawback trigger a "
            "phobia, mania or delusion)"
        )
    return line


def narrate(state: State, event: ev.Event) -> str:
    rolls: tuple[RollRecord, ...] = rolls_of(event)
    if any(r.hidden for r in rolls):
        return narrate_secret(state, event)
    return _capital(_narrate(state, event))


def _capital(line: str) -> str:
    """Sentences start with a capital, also when a name does ("the Cultist")."""
    line = line[:1].upper() + line[1:]
    return _SENTENCE.sub(lambda m: m[1] + m[2].upper(), line)


_SENTENCE = re.compile(r"(\. )([a-z])")


def _narrate(state: State, event: ev.Event) -> str:
    n = _Names(state)
    match event:
        case ev.CharacterAdded():
            skills = ", ".join(f"{title(k)} {v}" for k, v in event.skills.items())
            weapons = ", ".join(event.weapons) or "bare hands"
            kind = "investigator" if event.pc else "NPC"
            return (
                f"{event.name} ({kind}, {event.side}) joins: Dexterity {event.dexterity}, "
                f"Toughness {event.toughness}, Willpower {event.willpower}, Intellect "
                f"{event.intellect}; Stress Limit {event.stress_limit}, wound limit "
                f"{event.wound_limit}, Move {event.move_speed} yards"
                + (f"; {skills}" if skills else "")
                + f"; armed with {weapons}"
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
                mods = " ".join(f"{m.value:+d} {m.label}" for m in event.modifiers)
                burst = " with a Rapid Fire burst" if event.rapid_fire else ""
                return (
                    f"{n(event.attacker)} fires the {event.weapon} at {n(event.target)}{burst}: "
                    f"difficulty {event.difficulty} ({mods})"
                )
            return f"{n(event.attacker)} attacks {n(event.target)} with the {event.weapon}"
        case ev.AttackResolved():
            return _resolved(n, event)
        case ev.LimitChecked():
            return _limit(n, event)
        case ev.Bled():
            return f"{n(event.character)} bleeds: 1 damage (total {event.damage_after})"
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
            return _rolls(n, event.rolls)
        case ev.SkillDiceRolled():
            return _rolls(n, event.rolls) + "; the Narrator's difficulty dice are to come"
        case ev.DifficultyRolled():
            return _rolls(n, event.rolls)
        case ev.CheckRerolled():
            return f"{n(event.character)} rerolls: " + _rolls(n, event.rolls)
        case ev.RollRerolled():
            return (
                f"{n(event.character)} rerolls their dice of {event.label}: "
                + _rolls(n, event.rolls)
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
                    f". The {kind} brings a short-term effect for 1 round, amplified and "
                    "longer-lasting while Shaken: the Narrator rules on it"
                )
            return (
                f"Sanity check ({event.category}) for {n(event.character)}, {event.cause}: "
                + _rolls(n, event.rolls)
                + f". Stress +{event.gained} ({how} = {event.computed}{hard}), now "
                f"{event.stress_after}{effect}"
            )
        case ev.NotchGained():
            return (
                f"{n(event.character)} gains a hardened notch in {event.category.title()}: "
                f"level {event.level}, {event.notches} notch{'es' if event.notches != 1 else ''}"
            )
        case ev.KarmaSpent():
            return _karma(n, event)
        case ev.Recovered():
            what = "stress" if event.track == "stress" else "wounds"
            half = " (above the limit: half the successes)" if event.halved else ""
            return (
                _rolls(n, event.rolls)
                + f". {n(event.character)} recovers {event.amount} {what}{half}: now {event.after}"
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
            return (
                f"The Narrator rules: {who}{field} {event.previous} -> {event.value}"
                + ("; no longer Shaken" if event.shaken_after is False else "")
                + f" ({event.reason})"
            )
        case ev.ConditionSet():
            cond = _CONDITIONS[event.condition]
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


def _was_shaken(state: State, ident: str) -> bool:
    who = state.characters.get(ident)
    return who is not None and who.shaken


def _resolved(n: _Names, event: ev.AttackResolved) -> str:
    line = f"{n(event.target)} {_RESPONSES.get(event.response, event.response)}. "
    line += _rolls(n, event.rolls) + ". "
    if event.result == "nothing":
        line += "Nothing happens"
    elif event.result == "miss":
        line += f"{n(event.attacker)} misses"
    elif event.result == "defended":
        line += f"{n(event.target)} takes no damage"
    else:
        striker = n(event.target) if event.result == "fought_back" else n(event.attacker)
        parts = []
        for h in event.hits:
            crit = "critical: " if h.critical else ""
            parts.append(
                f"{crit}{h.base} base + {h.successes} successes = {h.dealt}, "
                f"-{h.reduction} Toughness: {h.taken}"
            )
        count = f"{len(event.hits)} hits" if len(event.hits) > 1 else "hits"
        line += (
            f"{striker} {count} {n(event.struck)} ({'; '.join(parts)}): total damage "
            f"{event.damage_after}"
        )
    if event.prone:
        line += "; " + ", ".join(n(p) for p in event.prone) + " ends prone"
    return line


def _limit(n: _Names, event: ev.LimitChecked) -> str:
    who = n(event.character)
    over = f"{event.value} is {event.difficulty} over {event.threshold}"
    if event.track == "wounds":
        what = "wound limit" if event.level == "limit" else "twice the wound limit: save or die"
        fail = "Severely Injured" if event.level == "limit" else "dead"
    else:
        what = "Stress Limit" if event.level == "limit" else "twice the Stress Limit: the save"
        fail = "Shaken" if event.level == "limit" else "temporarily insane or unconscious"
    result = (
        f"{who} holds on (rolls again on more {'damage' if event.track == 'wounds' else 'stress'})"
        if event.passed
        else f"{who} is {fail}"
    )
    return f"{who} is above the {what} ({over}): " + _rolls(n, event.rolls) + f". {result}"


_KARMA = {
    "reroll": "to reroll",
    "bonus": "for +2 on {target}'s roll",
    "difficulty": "for +2 difficulty on {target}'s roll",
    "deus_ex_machina": "for a deus ex machina",
    "trigger": "to trigger something in {target}",
}


def _karma(n: _Names, event: ev.KarmaSpent) -> str:
    who = n(event.by) if event.by else "The Narrator"
    use = _KARMA[event.use].format(target=n(event.target))
    note = f": {event.note}" if event.note else ""
    return (
        f"{who} spends a karma point {use}{note} (players {event.karma_players}, "
        f"Narrator {event.karma_narrator})"
    )


def narrate_secret(state: State, event: ev.Event) -> str:
    """What players read while the event is secret: who and what, from the fields
    ``view.SHOWN_WHEN_SECRET`` shows, without any number (a round, yards, a value could
    be mistaken for a face or a total) and never the Narrator's own line, also for the
    events of a secret command that no roll decided."""
    return _capital(_secret(state, event))


def _secret(state: State, event: ev.Event) -> str:
    n = _Names(state)
    match event:
        case ev.CharacterAdded():
            return f"{event.name} joins the encounter"
        case ev.DistanceSet():
            return f"The Narrator sets the distance between {n(event.a)} and {n(event.b)}"
        case ev.RoundStarted():
            return f"A new round begins: {event.initiating_side} initiate"
        case ev.TurnChosen():
            return f"{n(event.character)} chooses a {event.speed.title()} turn"
        case ev.TurnsOrdered():
            return "The Narrator sets the turn order"
        case ev.Moved():
            how = "sprints" if event.sprint else "runs" if event.run else "moves"
            return f"{n(event.character)} {how}"
        case ev.StoodUp():
            return f"{n(event.character)} gets up"
        case ev.TurnEnded():
            return f"{n(event.character)}'s turn is over"
        case ev.AttackDeclared():
            burst = " with a Rapid Fire burst" if event.rapid_fire else ""
            if event.ranged:
                return f"{n(event.attacker)} fires the {event.weapon} at {n(event.target)}{burst}"
            return f"{n(event.attacker)} strikes at {n(event.target)} with the {event.weapon}"
        case ev.AttackResolved():
            return (
                f"The Narrator rolls in secret for {n(event.attacker)}'s attack on "
                f"{n(event.target)}"
            )
        case ev.LimitChecked():
            what = "wounds" if event.track == "wounds" else "stress"
            return f"The Narrator rolls in secret for {n(event.character)}'s {what}"
        case ev.Bled():
            return f"{n(event.character)} bleeds"
        case ev.CheckCalled():
            return f"The Narrator calls for {event.label} from {n(event.character)}"
        case ev.DifficultyRolled():
            return (
                f"The Narrator rolls the difficulty dice for {n(event.character)}'s "
                f"{event.label} behind the screen"
            )
        case ev.CheckRolled() | ev.SkillDiceRolled() | ev.CheckRerolled() | ev.RollRerolled():
            return f"The Narrator rolls in secret for {n(event.character)}'s {event.label}"
        case ev.SanityChecked():
            return (
                f"The Narrator rolls a sanity check in secret for {n(event.character)}: "
                f"{event.cause}"
            )
        case ev.NotchGained():
            return f"Something changes in {n(event.character)}, in secret"
        case ev.KarmaSpent():
            return f"{n(event.by) if event.by else 'The Narrator'} spends a karma point"
        case ev.Recovered():
            return f"The Narrator rolls {n(event.character)}'s daily recovery in secret"
        case ev.Advanced():
            return f"{n(event.character)} advances in {title(event.trait)}"
        case ev.ValueSet():
            who = f"{n(event.character)}'s " if event.character else "the "
            return f"The Narrator changes {who}{event.field.replace('_', ' ')}"
        case ev.ConditionSet():
            verb = "is now" if event.on else "is no longer"
            return f"{n(event.character)} {verb} {_CONDITIONS[event.condition]}"
        case ev.StatusSet():
            return f"The Narrator rules on {n(event.character)}'s state"
        case ev.EffectRuled():
            return f"The Narrator rules an effect for {n(event.character)}: {event.effect}"
        case ev.EncounterEnded():
            return "The encounter is over"
        case _:
            assert_never(event)
