"""The reroll window (UAE-A6): which rolls stay open to a karma reroll after an event,
with the state from before the roll that opened them."""

from __future__ import annotations

from msgspec.structs import replace

from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.state import OpenRolls, State


def open_rolls(state: State, event: ev.Event) -> OpenRolls | None:
    """UAE-A6: the rolls open to a karma reroll after ``event``. A roll with consequences
    opens them (with the state before it); the checks, notches and turn end that follow
    it, and the karma point spent on a reroll, keep them open; anything else closes them."""
    current = state.open_rolls
    before = replace(state, open_rolls=None)
    match event:
        case ev.AttackResolved():
            return OpenRolls(
                kind="attack",
                before=before,
                records=event.rolls,
                response=event.response,
                back_weapon=event.back_weapon or "unarmed",
            )
        case ev.SanityChecked():
            return OpenRolls(
                kind="sanity",
                before=before,
                records=event.rolls,
                character=event.character,
                cause=event.cause,
                difficulty=event.difficulty,
                category=event.category,
            )
        case ev.Recovered():
            return OpenRolls(
                kind="recovery",
                before=before,
                records=event.rolls,
                character=event.character,
                track=event.track,
            )
        case ev.LimitChecked() if current is not None:
            return replace(current, records=(*current.records, *event.rolls))
        case ev.LimitChecked():
            return OpenRolls(
                kind="limit",
                before=before,
                records=event.rolls,
                character=event.character,
                track=event.track,
            )
        case ev.NotchGained() | ev.TurnEnded():
            return current
        case ev.KarmaSpent() if event.use == "reroll":
            return current
        case ev.RollRerolled() if current is not None:
            known = {r.roll_id: r for r in (*current.records, *event.rolls)}
            return replace(
                current,
                records=tuple(known[i] for i in event.sequence),
                rerolled_by=(*current.rerolled_by, event.character),
            )
    return None
