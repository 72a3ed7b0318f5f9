"""Carry-over into the campaign, its undo and redo, and the GM's adjustments.

A carry-over happens once per encounter and version: the process manager that sends it
may send it again after a crash, and the second is refused as already made, so it never
counts twice.  Undo returns the members and the table to what the carry-over recorded as
``previous``, and only while nothing changed them since: an older carry-over is never
undone under a newer one.

The process manager carries an encounter by itself only while the GM has not taken its
carry-over back: never carried, or its last carry-over still in force.  A note or a
ruling after an undo gives the encounter a later version, and carrying that on its own
would re-apply what the GM undid behind their back; once undone, only the GM carries
it again (``POST .../carry-over``, or a redo).
"""

from __future__ import annotations

from typing import Any

from service.campaigns import events as ev
from service.campaigns.commands import Adjust, CarryOver, RedoCarryOver, UndoCarryOver
from service.campaigns.encounters import known
from service.campaigns.state import Campaign
from service.campaigns.typed import plain, read, rules_of
from service.registry import get_ruleset
from service.ruleset import RuleViolation


def carry_over(campaign: Campaign, command: CarryOver) -> tuple[ev.Event, ...]:
    encounter = known(campaign, command.encounter)
    if encounter.closed:
        raise RuleViolation(f"{encounter.name} was closed without carrying anything over")
    made = next((c for c in encounter.carried if c.version >= command.version), None)
    if made is not None:
        raise RuleViolation(f"{encounter.name} was already carried over at version {made.version}")
    if command.automatic and encounter.carried and encounter.carried[-1].undone:
        raise RuleViolation(
            f"the GM undid the carry-over of {encounter.name} at version"
            f" {encounter.carried[-1].version}: only the GM carries it again (carry it over"
            " now, or redo)"
        )
    ruleset = get_ruleset(campaign.ruleset)
    rules = rules_of(campaign.ruleset)
    game = read(ruleset.state_type, command.game, f"the state of {encounter.name}")
    carried = rules.carry_over(game, read(rules.options_type, campaign.options, "the options"))
    fought = [m for m in encounter.members if m in campaign.members and m in carried.characters]
    return (
        ev.CarriedOver(
            encounter=command.encounter,
            version=command.version,
            conditions={m: plain(carried.characters[m]) for m in fought},
            previous={m: campaign.members[m].condition for m in fought},
            table=plain(carried.table),
            previous_table=campaign.table,
        ),
    )


def undo(campaign: Campaign, command: UndoCarryOver) -> tuple[ev.Event, ...]:
    encounter = known(campaign, command.encounter)
    applied = [c for c in encounter.carried if not c.undone]
    if not applied:
        raise RuleViolation(f"{encounter.name} has no carry-over to undo")
    last = applied[-1]
    _unchanged_since(campaign, last.conditions, last.table, "undo")
    return (
        ev.CarryOverUndone(
            encounter=command.encounter, version=last.version, reason=command.reason.strip()
        ),
    )


def redo(campaign: Campaign, command: RedoCarryOver) -> tuple[ev.Event, ...]:
    encounter = known(campaign, command.encounter)
    undone = [c for c in encounter.carried if c.undone]
    if not undone:
        raise RuleViolation(f"{encounter.name} has no carry-over undone to redo")
    first = undone[0]
    _unchanged_since(campaign, first.previous, first.previous_table, "redo")
    return (
        ev.CarryOverRedone(
            encounter=command.encounter, version=first.version, reason=command.reason.strip()
        ),
    )


def _unchanged_since(
    campaign: Campaign,
    conditions: dict[str, Any],
    table: dict[str, Any] | None,
    what: str,
) -> None:
    """The members and table are as the carry-over to undo left them (or, to redo, as
    it found them): otherwise a later change would be silently overwritten."""
    for member_id, condition in conditions.items():
        member = campaign.members.get(member_id)
        if member is None:
            continue
        if member.condition != condition:
            raise RuleViolation(
                f"cannot {what}: {member.name}'s condition changed since (a later carry-over "
                "or ruling); undo that first or adjust by ruling"
            )
    if campaign.table != table:
        raise RuleViolation(f"cannot {what}: the table changed since; undo that first")


def adjust(campaign: Campaign, command: Adjust) -> tuple[ev.Event, ...]:
    rules = rules_of(campaign.ruleset)
    reason = command.reason.strip()
    if not reason:
        raise RuleViolation("a ruling needs a reason")
    if command.member is None:
        if command.condition is None:
            raise RuleViolation("a ruling on the table says what the table is")
        table = plain(read(rules.table_type, command.condition, "the table"))
        if table == campaign.table:
            raise RuleViolation("the table is already so")
        return (ev.Adjusted(member=None, condition=table, previous=campaign.table, reason=reason),)
    member = campaign.members.get(command.member)
    if member is None:
        raise RuleViolation(f"{command.member} is not a member of the party")
    condition = None
    if command.condition is not None:
        condition = plain(read(rules.condition_type, command.condition, "the condition"))
    if condition == member.condition:
        raise RuleViolation(f"{member.name}'s condition is already so")
    return (
        ev.Adjusted(
            member=command.member, condition=condition, previous=member.condition, reason=reason
        ),
    )
