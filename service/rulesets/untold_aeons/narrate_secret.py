"""The replay log's line for an event whose rolls are still secret: who and what, from
the fields players may see (``view.SHOWN_WHEN_SECRET``); ``narrate.narrate_secret``
capitalises it."""

from __future__ import annotations

from typing import assert_never

from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.narrate_parts import CONDITIONS, Names
from service.rulesets.untold_aeons.rolls import title
from service.rulesets.untold_aeons.state import State


def secret_line(state: State, event: ev.Event) -> str:
    n = Names(state)
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
            return f"{n(event.character)} {verb} {CONDITIONS[event.condition]}"
        case ev.StatusSet():
            return f"The Narrator rules on {n(event.character)}'s state"
        case ev.EffectRuled():
            return f"The Narrator rules an effect for {n(event.character)}: {event.effect}"
        case ev.EncounterEnded():
            return "The encounter is over"
        case _:
            assert_never(event)
