"""``narrate``: one line of the replay log per event, the way a GM announces it.

Given the state *before* the event.  Rolls are said by ``service.dice.announce``: the
raw d20, then every modifier with its label, the total and what it was against
(section 10, AEK-05); this module adds what the rules made of them, and
``narrate_parts`` builds the parts the longer lines share.
"""

from __future__ import annotations

from typing import assert_never

from service.health_text import health_part, health_words
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical import narrate_parts
from service.rulesets.aeonisk_tactical.fields import FATAL_WOUNDS, TOKEN_NAMES, title
from service.rulesets.aeonisk_tactical.health import SHEET_HEALTH
from service.rulesets.aeonisk_tactical.narrate_parts import (
    Names,
    action,
    damage_verdict,
    declared,
    rolls,
    spend,
)
from service.rulesets.aeonisk_tactical.state import State

_PHASES = {
    "fast": "Fast Phase: Reactions in descending Initiative",
    "slow": "Slow Phase: declared actions resolve in descending Initiative",
    "cleanup": "Cleanup Phase: lingering effects, Wounds and Stun, morale",
}


def narrate(state: State, event: ev.Event) -> str:
    n = Names(state)
    match event:
        case ev.CharacterAdded():
            traits = ", ".join(f"{title(k)} {v}" for k, v in event.attributes.items())
            kind = "PC" if event.pc else "NPC"
            # The sheet is what the players' state hides of an NPC: its numbers tell how
            # much it takes to wound it and whether it survives (AEK-67, AEK-68).
            sheet = health_part(
                event.character, f": {traits}; Soak {event.soak}, Void {event.void}"
            )
            return f"{event.name} ({kind}, {event.side}) joins{sheet}"
        case ev.CharacterRemoved():
            return f"{n(event.character)} leaves the encounter"
        case ev.BandSet():
            return f"GM: {n(event.a)} and {n(event.b)} are at {title(event.band)} range"
        case ev.ZoneEntered():
            return f"GM: {n(event.character)} is in {event.zone}"
        case ev.TokenPlaced():
            return f"GM places the {TOKEN_NAMES[event.kind]} token: {event.label}"
        case ev.RoundStarted():
            rolling = ""
            if event.awaiting:
                names = ", ".join(n(c) for c in event.awaiting)
                rolling = f" Initiative one at a time as the dice land ({names} to roll)."
            return (
                f"Round {event.round} begins.{rolling} Declare Phase: declarations in ascending "
                "Initiative"
            )
        case ev.InitiativeRolled():
            order = ", ".join(f"{n(c)} {narrate_parts.init(event, c, state)}" for c in event.order)
            note = f" ({event.note})" if event.note else ""
            return f"{rolls(state, event.rolls)}. Initiative order: {order}{note}"
        case ev.PhaseStarted():
            return f"Round {event.round}, {_PHASES[event.phase]}"
        case ev.Declared():
            return declared(state, event.declaration)
        case ev.DeclarationLapsed():
            return (
                f"{n(event.character)} declared nothing before the GM closed the Declare Phase: "
                "no action this round and no Defence Token, so every attacker gains Flanking "
                "(+2) (section 4)"
            )
        case ev.VoidSurgeDeclared():
            return (
                f"{n(event.character)} declares a Void Surge (Free Action) for the coming attack: "
                "+4 damage, Shock on a hit, 1 Stun backlash"
            )
        case ev.InitiativeRerolled():
            return (
                f"{rolls(state, event.rolls)}: {n(event.character)}'s Initiative is now "
                f"{event.total}"
            )
        case ev.ActionBegan():
            who = state.characters.get(event.character)
            init = f" (Initiative {who.initiative})" if who else ""
            return (
                f"{n(event.character)}{init} resolves their {event.slot.title()}: "
                f"{action(state, event.action)}"
            )
        case ev.ActionFailed():
            return f"{n(event.character)}'s {event.slot.title()} action fails: {event.reason}"
        case ev.TokenClaimed():
            token = state.tokens[event.token]
            back = ""
            if event.returned is not None:
                back = f", giving back {TOKEN_NAMES[state.tokens[event.returned].kind]}"
            return (
                f"{n(event.character)} claims the {TOKEN_NAMES[token.kind]} token "
                f"({token.label}){back}"
            )
        case ev.TokenSpent():
            return (
                f"{n(event.character)} spends {TOKEN_NAMES[event.kind]} as a Reaction: "
                f"{spend(event, n)}"
            )
        case ev.BondedDefenceGiven():
            return (
                f"{n(event.by)} uses their Reaction for Bonded Defence: {n(event.ally)} gets +2 "
                f"to defend against {n(event.attacker)}; {n(event.by)} takes -2 on their next "
                "defence"
            )
        case ev.ParryCommitted():
            bonus = f" {event.bonus:+d} parry bonus" if event.bonus else ""
            return (
                f"{n(event.character)} uses their Reaction to Parry {n(event.attacker)}'s attack: "
                f"{title(event.attribute)} x {title(event.skill)}{bonus} for that defence"
            )
        case ev.HeroicBurnMade():
            when = "as a Reaction" if event.reaction else "at allocation"
            return (
                f"{n(event.character)} makes a Heroic Burn {when}: {n(event.foe)} suffers -4 "
                "this round, and the Defence Token does not refresh this combat"
            )
        case ev.AttackRolled():
            verb = "hits" if event.outcome == "hit" else "misses"
            return f"{rolls(state, event.rolls)}: {n(event.attacker)} {verb} {n(event.target)}"
        case ev.DamageRolled():
            return f"{rolls(state, event.rolls)}; {damage_verdict(state, event)}"
        case ev.FatalCheck():
            if event.outcome == "success":
                fate = "survives"
            else:
                fate = "fails and dies" if event.dead else "fails: the GM rules what follows"
            return f"{rolls(state, event.rolls)}: {n(event.character)} {fate}"
        case ev.CheckRolled():
            return rolls(state, event.rolls)
        case ev.Moved():
            if event.zone is not None:
                return f"{n(event.character)} moves to {event.zone}"
            shifts = "; ".join(
                f"{n(c.other)} {title(c.before or 'unknown')} -> {title(c.after)}"
                for c in event.changes
            )
            return f"{n(event.character)} moves: {shifts}"
        case ev.ChargeMade():
            return (
                f"{n(event.character)} charges into Engaged with {n(event.foe)}: +2 to the first "
                "melee damage this turn, -2 to defences until their next turn"
            )
        case ev.ProneChanged():
            state_word = "falls Prone" if event.prone else "is no longer Prone"
            return f"{n(event.character)} {state_word} ({event.reason})"
        case ev.StunChanged():
            return f"{n(event.character)} is at {event.stun} Stun ({event.reason})"
        case ev.ShockSuffered():
            who = state.characters[event.character]
            if event.initiative is None:
                return (
                    f"{who.name} suffers Shock ({event.reason}); the GM sets how far Initiative "
                    f"{who.initiative} drops"
                )
            return (
                f"{who.name} suffers Shock ({event.reason}): Initiative {who.initiative} -> "
                f"{event.initiative}"
            )
        case ev.VoidChanged():
            return (
                f"GM ruling: {n(event.character)}'s Void is now {event.void}, because "
                f"{event.reason}"
            )
        case ev.OverwatchSet():
            arc = ", ".join(n(a) for a in event.watch.arc)
            return f"{n(event.character)} sets up Overwatch over {arc} with {event.watch.weapon}"
        case ev.SuppressionPending():
            return f"{n(event.target)} is suppressed by {n(event.by)}: Dive or Hunker Down?"
        case ev.SuppressionChosen():
            if event.choice == "hunker_down":
                return (
                    f"{n(event.character)} hunkers down: -4 to attack and defence until their next "
                    "turn"
                )
            lost = ", losing the Cover token" if event.lost_cover else ""
            return f"{n(event.character)} dives one band away{lost}"
        case ev.BreakawayOpened():
            foes = ", ".join(n(f) for f in event.foes)
            before = " before the move completes" if event.move is not None else ""
            return (
                f"{n(event.mover)} breaks away from Engaged without disengaging: {foes} may strike "
                f"for free{before}"
            )
        case ev.BreakawayClosed():
            return narrate_parts.breakaway_closed(state, event)
        case ev.EffectsEnded():
            return f"{n(event.character)}: {', '.join(_EFFECTS[e] for e in event.effects)} ends"
        case ev.Obscured():
            return (
                f"{n(event.by)} opens the vent ({event.label}): the area is obscured until round "
                f"{event.until_round} ends"
            )
        case ev.ObscurementCleared():
            line = "The vented gas clears"
            return f"GM ruling: {line.lower()}, because {event.reason}" if event.reason else line
        case ev.ValueSet():
            was = "unset" if event.previous is None else str(event.previous)
            change = f" set to {event.value} (was {was})"
            if event.field == "wounds":  # the word the players' state gives (view.py)
                left = max(0, FATAL_WOUNDS - event.value)
                change = health_words(
                    event.character, change, left, FATAL_WOUNDS, " changed ({word})", " changed"
                )
            elif event.field in SHEET_HEALTH:
                change = health_part(event.character, change, " changed", " changed")
            return (
                f"GM ruling: {n(event.character)}'s {event.field}{change}, because {event.reason}"
            )
        case ev.OutcomeOverridden():
            what = next(
                (r.description for r in state.recent if r.roll_id == event.roll_id),
                f"roll {event.roll_id}",
            )
            return (
                f"GM ruling: {what} ({event.roll_id}) is '{event.outcome}', not "
                f"'{event.previous}', "
                f"because {event.reason}"
            )
        case ev.EnergyNullified():
            return (
                f"GM ruling: {n(event.character)}'s Energy Hub bonus is nullified, because "
                f"{event.reason}"
            )
        case ev.ExtraTokenIgnored():
            return (
                f"GM ruling: {n(event.character)} would gain another Defence Token "
                f"({event.reason}); it only upgrades the one held, still capped at -2 / -4"
            )
        case ev.EncounterEnded():
            number = state.round
            return "The encounter ends" + (f" in round {number}" if number else "")
        case _:
            assert_never(event)


_EFFECTS = {
    "cover": "unused Cover (+2 Soak)",
    "hunker_down": "Hunker Down",
    "charge": "the Charge's -2 to defences",
    "charge_bonus": "the Charge's +2 damage",
}
