"""Players ask, the GM answers (issue 16): what a request may be and what an answer
appends, decided purely from the folded encounter.

A player acts from the sheet the GM set; anything off it (their own dice or numbers, a
command that speaks for the table) is sent as a request instead.  The request waits in
the encounter's ``requests``; the GM approves it (the command is decided then, as if the
GM had issued it, and its events come before the answer in one command) or refuses it
with a reason.  Both are events, so the log shows who asked for what and what the table
decided.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.authorize import Forbidden
from service.codec import EventCodec
from service.commands import CommandEnvelope
from service.core_events import RequestAnswered, RequestMade
from service.encounter import Encounter
from service.ruleset import RuleViolation


def request_made(
    codec: EventCodec,
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    note: str | None,
    bound: frozenset[str] | None,
) -> RequestMade:
    """The request a player (bound to ``bound``; None for the GM) may make: any command
    of the ruleset, for their own combatants or for the table, never in secret."""
    command = envelope.command
    codec.ensure_owns(command)
    if envelope.hidden:
        raise Forbidden("only the GM may roll in secret")
    if bound is not None:
        acts_for = codec.ruleset.acts_for(encounter.game, command)
        if acts_for is not None and not acts_for <= bound:
            others = ", ".join(sorted(acts_for - bound))
            raise Forbidden(f"a player asks only for their own combatants, not for {others}")
    return RequestMade(
        request_id=f"q{encounter.requests_made + 1}",
        command=msgspec.to_builtins(command),
        manual_dice=envelope.manual_dice,
        note=note,
    )


def approved_envelope(
    codec: EventCodec,
    encounter: Encounter[Any],
    request_id: str,
    manual_dice: list[list[int]] | None,
) -> CommandEnvelope:
    """The command of a waiting request, to be decided as the GM's; the GM's dice, if
    given, replace the ones the player asked with."""
    pending = encounter.requests.get(request_id)
    if pending is None:
        raise RuleViolation(f"no request {request_id!r} is waiting for the GM's answer")
    command = msgspec.convert(pending.command, codec.command_union)
    dice = manual_dice if manual_dice is not None else pending.manual_dice
    return CommandEnvelope(command=command, manual_dice=dice)


def refusal(encounter: Encounter[Any], request_id: str, reason: str) -> RequestAnswered:
    if request_id not in encounter.requests:
        raise RuleViolation(f"no request {request_id!r} is waiting for the GM's answer")
    return RequestAnswered(request_id=request_id, approved=False, reason=reason)
