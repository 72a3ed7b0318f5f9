"""Players ask, the GM answers: what a request may be and what an answer appends,
decided purely from the folded encounter.

A player acts from the sheet the GM set; numbers off it (an improvised weapon's damage, an
unusual check's notation) are sent as a request instead.  A request carries a command the
player could otherwise issue (for their own combatants, never in secret, with dice of
their own only where the encounter allows them) whose numbers the GM has not set: those
numbers are what the GM is asked about, so the request, its log line and the console show
every one.  The request waits in the encounter's ``requests``; the GM may amend it, then
approves it (the command is decided as if the GM had issued it, exactly as it stands, and
its events come before the answer in one command) or refuses it with a reason.  All of
these are events, so the log shows who asked for what and what the table decided.

Pending requests are part of every state read and every fold, so they are bounded: a few
per token (``RequestLimits.per_token``) and a few KiB each (``RequestLimits.max_bytes``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.authorize import Forbidden, authorize_player
from service.codec import EventCodec
from service.commands import CommandEnvelope
from service.core_events import RequestAmended, RequestAnswered, RequestMade
from service.encounter import Encounter, PendingRequest
from service.ruleset import RuleViolation

_encoder = msgspec.json.Encoder()


PENDING_PER_TOKEN = 5
"""Requests one token may have waiting at once: the GM answers before it asks more."""
REQUEST_BYTES = 4096
"""A request's command, dice and note as JSON: room for any command a player sends with
numbers of their own and a sentence of why, not for a payload that bloats every state."""


class RequestLimits(msgspec.Struct, frozen=True, kw_only=True):
    """How much may wait for the GM (AEON_MAX_PENDING_REQUESTS, AEON_MAX_REQUEST_BYTES)."""

    per_token: int = PENDING_PER_TOKEN
    max_bytes: int = REQUEST_BYTES


DEFAULT_LIMITS = RequestLimits()


class RequestTooLarge(Exception):
    """A request over ``RequestLimits.max_bytes``: 422 naming the limit, like the limits
    on dice notation."""


class TooManyRequests(Exception):
    """A token with ``RequestLimits.per_token`` requests waiting asks again: 409, since
    the encounter's state refuses it (not a rate: it clears when the GM answers)."""


def ensure_room(encounter: Encounter[Any], asked_by: str | None, limits: RequestLimits) -> None:
    """Refuse one more waiting request of token ``asked_by`` past the operator's cap: every
    request stays in the state until the GM answers it, so a token must not grow it."""
    waiting = sum(1 for p in encounter.requests.values() if p.asked_by == asked_by)
    if asked_by is not None and waiting >= limits.per_token:
        raise TooManyRequests(
            f"this token already has {waiting} requests waiting for the GM (at most"
            f" {limits.per_token}): wait for the GM's answer, or ask the GM to clear them"
        )


def request_made(
    codec: EventCodec,
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    note: str | None,
    bound: frozenset[str] | None,
    *,
    asked_by: str | None,
    limits: RequestLimits,
) -> RequestMade:
    """The request a player bound to ``bound`` (None: the GM, asking on the record) may
    make as token ``asked_by``: a command they could issue but for its numbers."""
    command = envelope.command
    codec.ensure_owns(command)
    if envelope.hidden:
        raise Forbidden("only the GM may roll in secret")
    if bound is not None:
        authorize_player(codec.ruleset, encounter, envelope, bound, off_sheet=True)
    ensure_room(encounter, asked_by, limits)
    made = RequestMade(
        request_id=f"q{encounter.requests_made + 1}",
        command=msgspec.to_builtins(command),
        manual_dice=envelope.manual_dice,
        note=note,
        asked_by=asked_by,
    )
    _within(made.command, made.manual_dice, note, limits)
    return made


def amendment(
    codec: EventCodec,
    encounter: Encounter[Any],
    request_id: str,
    envelope: CommandEnvelope,
    limits: RequestLimits,
) -> RequestAmended:
    """The GM's new version of a waiting request: what approving it will then apply."""
    pending = waiting_request(encounter, request_id)
    codec.ensure_owns(envelope.command)
    amended = RequestAmended(
        request_id=request_id,
        command=msgspec.to_builtins(envelope.command),
        manual_dice=envelope.manual_dice,
    )
    _within(amended.command, amended.manual_dice, pending.note, limits)
    return amended


def approved_envelope(
    codec: EventCodec,
    encounter: Encounter[Any],
    request_id: str,
    manual_dice: list[list[int]] | None,
) -> CommandEnvelope:
    """The command of a waiting request, exactly as it stands, to be decided as the GM's;
    the GM's dice, if given, replace the ones the request carries."""
    pending = waiting_request(encounter, request_id)
    command = msgspec.convert(pending.command, codec.command_union)
    dice = manual_dice if manual_dice is not None else pending.manual_dice
    return CommandEnvelope(command=command, manual_dice=dice)


def refusal(encounter: Encounter[Any], request_id: str, reason: str) -> RequestAnswered:
    waiting_request(encounter, request_id)
    return RequestAnswered(request_id=request_id, approved=False, reason=reason)


def clearance(
    encounter: Encounter[Any], reason: str, asked_by: str | None = None
) -> tuple[RequestAnswered, ...]:
    """Refuse every waiting request (only token ``asked_by``'s, if given) at once: the
    GM's way out of a flood, one refusal each so the log still answers every request."""
    return tuple(
        RequestAnswered(request_id=request_id, approved=False, reason=reason)
        for request_id, pending in encounter.requests.items()
        if asked_by is None or pending.asked_by == asked_by
    )


def waiting_request(encounter: Encounter[Any], request_id: str) -> PendingRequest:
    pending = encounter.requests.get(request_id)
    if pending is None:
        raise RuleViolation(f"no request {request_id!r} is waiting for the GM's answer")
    return pending


def _within(
    command: dict[str, Any],
    manual_dice: list[list[int]] | None,
    note: str | None,
    limits: RequestLimits,
) -> None:
    size = len(_encoder.encode((command, manual_dice, note)))
    if size > limits.max_bytes:
        raise RequestTooLarge(
            f"a request may take {limits.max_bytes} bytes of command, dice and note"
            f" (this one takes {size}): ask for less, or issue it as the GM"
        )
