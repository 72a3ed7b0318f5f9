"""The commands on an encounter the write path takes, one type each: what a request asks,
bound to nothing yet.  service/write/handlers.py maps each type to the handler that
decides it; the unit of work runs that handler on the encounter (unit_of_work.py).

``command_type`` is the name a command's events carry in their metadata (and the traces
and metrics): a ruleset command's is its own tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import msgspec

from service.commands import CommandEnvelope
from service.core_events import NoteAdded
from service.requests import DEFAULT_LIMITS, RequestLimits
from service.ruleset import tag_of


class RulesetCommand(msgspec.Struct, frozen=True):
    """A command of the encounter's ruleset; ``player`` is what a player token
    (``asked_by``) is bound to, None for the GM; ``limits`` cap the requests a player's
    commands wait as while secrets are open."""

    envelope: CommandEnvelope
    player: frozenset[str] | None = None
    asked_by: str | None = None
    limits: RequestLimits = DEFAULT_LIMITS

    @property
    def command_type(self) -> str:
        return tag_of(type(self.envelope.command))


class RevealSeed(msgspec.Struct, frozen=True):
    next_client_seed: str | None
    command_type: ClassVar[str] = "dice.reveal_seed"


class RevealRolls(msgspec.Struct, frozen=True):
    roll_ids: Sequence[str]
    command_type: ClassVar[str] = "dice.reveal_rolls"


class MakeRequest(msgspec.Struct, frozen=True):
    envelope: CommandEnvelope
    note: str | None
    player: frozenset[str] | None
    asked_by: str | None
    limits: RequestLimits
    command_type: ClassVar[str] = "encounter.request"


class AmendRequest(msgspec.Struct, frozen=True):
    request_id: str
    envelope: CommandEnvelope
    limits: RequestLimits
    command_type: ClassVar[str] = "encounter.amend_request"


class ClearRequests(msgspec.Struct, frozen=True):
    reason: str
    asked_by: str | None
    command_type: ClassVar[str] = "encounter.clear_requests"


class AnswerRequest(msgspec.Struct, frozen=True):
    request_id: str
    refuse_because: str | None
    manual_dice: list[list[int]] | None
    command_type: ClassVar[str] = "encounter.answer_request"


class AddNote(msgspec.Struct, frozen=True):
    note: NoteAdded
    command_type: ClassVar[str] = "encounter.add_note"


class Undo(msgspec.Struct, frozen=True):
    steps: int | None
    to_version: int | None
    reason: str | None
    command_type: ClassVar[str] = "history.undo"


class Redo(msgspec.Struct, frozen=True):
    reason: str | None
    command_type: ClassVar[str] = "history.redo"


Command = (
    RulesetCommand
    | RevealSeed
    | RevealRolls
    | MakeRequest
    | AmendRequest
    | ClearRequests
    | AnswerRequest
    | AddNote
    | Undo
    | Redo
)
