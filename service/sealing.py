"""Secret commands as one sealed envelope each, and what open secrets do to later ones.

Secrecy here is noninterference (docs/secrecy.md): two encounters whose secret commands
differ only in what is secret must look the same to every player until the GM reveals.
So a secret command appends exactly one event (``Sealed``) whatever it decided, chained
by a salted commitment to its contents, and numbers its rolls in its own namespace.

While a secret command is open, every later command that reads the state may read what
the secret changed, and any answer it gives (a refusal, a skipped turn) could tell it.
Whether it did is never looked at (that comparison would itself leak): a later GM command
is sealed too, until the secrets it may depend on are revealed, and a later player
command is held for the GM as a request, with a reason that names the open secret.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import msgspec

from events.hashing import seal_commitment
from service.codec import EventCodec
from service.commands import CommandEnvelope
from service.core_events import RequestMade, Sealed
from service.encounter import Encounter
from service.envelopes import still_sealed, waits_of
from service.requests import RequestLimits, ensure_room
from service.ruleset import tag_of

SALT_BYTES = 32
"""256 bits: far beyond any search over a secret's few candidate values."""


def next_seal_id(encounter: Encounter[Any]) -> str:
    return f"s{encounter.seals_made + 1}"


def seals(encounter: Encounter[Any], envelope: CommandEnvelope) -> bool:
    """Whether a GM command is sealed: it rolls in secret, or it reads a state that open
    secrets may have changed."""
    return envelope.hidden or bool(encounter.open_seals)


def sealed(
    codec: EventCodec,
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    events: Sequence[Any],
) -> Sealed:
    """The one event a sealed command appends: its public form, the commitment, and the
    ``events`` it decided with a fresh salt (GM-only until it opens)."""
    ruleset = codec.ruleset
    seal_id = next_seal_id(encounter)
    stored = tuple(codec.stored_form(e) for e in events)
    salt = secrets.token_bytes(SALT_BYTES).hex()
    shown: dict[str, Any] = {}
    if envelope.hidden and events:
        # What the table sees of a secret command today: who acts, on whom, what; the
        # first event of a command is fixed by the command (an attack's roll, a check's).
        first = stored[0]
        whitelist = ruleset.shown_when_secret.get(first["type"], frozenset())
        shown = {k: v for k, v in first["data"].items() if k in whitelist and k != "rolls"}
    own = (seal_id,) if envelope.hidden else ()
    return Sealed(
        seal_id=seal_id,
        command_type=tag_of(type(envelope.command)),
        shown=shown,
        hidden=envelope.hidden,
        taints=not (envelope.hidden and ruleset.secret_changes_nothing(envelope.command)),
        waits_for=(*own, *encounter.open_seals),
        commitment=seal_commitment(salt, stored),
        salt=salt,
        events=stored,
        inner=tuple(events),
    )


def waiting_reason(encounter: Encounter[Any]) -> str:
    """Why a player's command waits for the GM: the open secrets, by name, and never the
    rule the command might have tripped (the same words in every world)."""
    names = ", ".join(encounter.open_seals)
    one = len(encounter.open_seals) == 1
    return (
        f"The GM's secret {'command' if one else 'commands'} {names}"
        f" {'is' if one else 'are'} still hidden: the GM decides this one"
    )


def held(
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    asked_by: str | None,
    limits: RequestLimits,
) -> RequestMade:
    """A player's command, held for the GM as a request while secrets are open; it counts
    against the token's cap of waiting requests like any request (the count is public,
    so the refusal is the same in every world)."""
    ensure_room(encounter, asked_by, limits)
    return RequestMade(
        request_id=f"q{encounter.requests_made + 1}",
        command=msgspec.to_builtins(envelope.command),
        manual_dice=envelope.manual_dice,
        asked_by=asked_by,
        held_because=waiting_reason(encounter),
    )


def opened_by(encounter: Encounter[Any], asked: Sequence[str]) -> tuple[str, ...] | None:
    """The ids a reveal of ``asked`` marks revealed: the asked seals, the envelopes that
    open with them (all they waited for is revealed) and the rolls of those; None when
    some asked id is not a sealed secret still hidden here (the caller says which)."""
    wanted: list[str] = []
    for roll_id in asked:
        seal_id = roll_id.split(".", 1)[0]
        seal = encounter.sealed.get(seal_id)
        if seal is None or seal_id not in waits_of(seal_id, seal, encounter.open_seals):
            return None
        if roll_id != seal_id and roll_id not in seal.rolls:
            return None
        wanted.append(seal_id)
    shown = set(wanted)
    left = tuple(s for s in encounter.open_seals if s not in shown)
    still = still_sealed(encounter.sealed, left, shown)
    opened = [s for s in encounter.sealed if s not in still]
    rolls = [r for s in opened for r in encounter.sealed[s].rolls]
    return tuple(dict.fromkeys([*wanted, *opened, *rolls]))
