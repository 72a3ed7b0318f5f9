"""Read models kept with the events: current state, replay log, roll ledger.

This module works out their rows (projections/rows.py), purely; the command's one write
statement (events/append.py) stores them with the events, so a read after a 2xx always sees the
command's effect.  A rebuild (projections/rebuild.py) derives the same rows from the same
function, so a rebuild and the live path cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from projections.narration import narrate, narrate_secret
from projections.redaction import HIDDEN_SEQUEL, PRIVATE_NOTE
from projections.rows import LogRow, ReadModelRows, RollRow, StateRow
from projections.sealed_narration import opened_line, sealed_line, unhidden
from service.applied import AppliedEvent
from service.codec import EventCodec
from service.core_events import EncounterForked, HitPointsRolled, NoteAdded, Sealed, SeedCommitted
from service.encounter import schema_version
from service.ruleset import rolls_of

_encode = msgspec.json.Encoder().encode
_row = tuple.__new__
"""Builds a row NamedTuple from a tuple of its fields, without the NamedTuple's own
``__new__`` (a Python function: 0.36 against 0.2 us a row, and a rebuild builds one or two
rows per event)."""


def read_model_rows(codec: EventCodec, applied: Sequence[AppliedEvent]) -> ReadModelRows:
    """The rows ``applied`` (one or more events folded in order) adds to the read models.

    A rebuild runs this for every event: one plain loop, and the work for hidden rolls,
    GM-only notes and roll rows done only for events that have them (most have none);
    the hidden rolls are found in the loop that makes the roll rows, not by a
    comprehension of their own (in Python 3.11 a function call per event with rolls).
    """
    ruleset = codec.ruleset
    round_of = ruleset.round_of
    first, last = applied[0], applied[-1]
    log: list[LogRow] = []
    rolls: list[RollRow] = []
    secret = secret_rolls_by_command(applied)
    told: set[Any] = set()
    for step in applied:
        rec, event = step.recorded, step.event
        version = rec.stream_version
        if type(event) is Sealed:
            _sealed_rows(ruleset, step, log, rolls)
            continue
        round_no = round_of(step.after.game)
        gm_text: str | None = None
        command_id = rec.metadata.get("command_id") if secret else None
        hidden: list[str] = secret.get(command_id, []) if secret else []
        if hidden and type(event) is SeedCommitted:
            hidden = []  # a fork's own dice commitment derives from no secret: public
        if hidden:
            # Everything this command decided derives from its secret roll: players read
            # the line that says only what was attempted (the command's first event), the
            # GM (and everyone, once every roll of the command is revealed) the full one.
            # Which events follow (damage only after a hit) is itself an outcome.
            if command_id in told:
                text = HIDDEN_SEQUEL
            else:
                text = narrate_secret(ruleset, step.before, event)
                told.add(command_id)
            gm_text = narrate(ruleset, step.before, unhidden(event))
        else:
            text = narrate(ruleset, step.before, event)
        made = rolls_of(event)
        for roll in made:
            roll_row = (roll.roll_id, version, round_no, _encode(roll).decode())
            rolls.append(_row(RollRow, roll_row))
        gm_only = type(event) is NoteAdded and event.gm_only  # core events are final
        if gm_only:
            text, gm_text = PRIVATE_NOTE, text
        log_row = (version, round_no, rec.type, text, gm_text, hidden, gm_only, rec.recorded_at)
        log.append(_row(LogRow, log_row))
    final = last.after
    state = StateRow(
        first.recorded.stream_id,
        ruleset.name,
        final.name,
        final.version,
        schema_version(ruleset),
        codec.encode_state(final).decode(),
        first.recorded.recorded_at,
        last.recorded.recorded_at,
    )
    return ReadModelRows(state, log, rolls)


_OWN_SECRECY = frozenset({Sealed, HitPointsRolled})
"""Events whose hidden rolls keep no other event of their command secret: an envelope is
one event with its own rows (``_sealed_rows``); monsters' hit points rolled in secret
are health, which the events bringing the monsters in hide by ``npc_health``."""


def secret_rolls_by_command(applied: Sequence[AppliedEvent]) -> dict[Any, list[str]]:
    """The hidden roll ids of each command (by ``command_id``) among ``applied`` that made
    any: every event of such a command is secret until all of them are revealed."""
    secret: dict[Any, list[str]] = {}
    for step in applied:
        if type(step.event) in _OWN_SECRECY:
            continue
        if type(step.event) is EncounterForked and step.event.secret_rolls:
            secret[step.recorded.metadata.get("command_id")] = list(step.event.secret_rolls)
        for roll in rolls_of(step.event):
            if roll.hidden:
                secret.setdefault(step.recorded.metadata.get("command_id"), []).append(roll.roll_id)
    return secret


def _sealed_rows(ruleset: Any, step: AppliedEvent, log: list[LogRow], rolls: list[RollRow]) -> None:
    """An envelope's rows: one log line that stays sealed until all it waits for is
    revealed, and in the ledger a marker record for the envelope (what players see of
    it while sealed: one record, whatever it rolled) before its own rolls.

    Its round is the one it leaves the table in, as for any row (the GM's page steps
    through rounds by it); players read the public round instead until it opens
    (projections/log_queries.py), so a sealed turn that starts a round does not say so."""
    event: Sealed = step.event
    assert step.before is not None
    version = step.recorded.stream_version
    round_no = ruleset.round_of(step.after.game)
    marker = {"roll_id": event.seal_id, "roller": None, "source": "sealed", "hidden": True}
    rolls.append(_row(RollRow, (event.seal_id, version, round_no, _encode(marker).decode())))
    for roll in event.rolls:
        rolls.append(_row(RollRow, (roll.roll_id, version, round_no, _encode(roll).decode())))
    text = sealed_line(ruleset, step.before, event)
    gm_text = opened_line(ruleset, step.before, event)
    waits = [event.seal_id, *(w for w in event.waits_for if w != event.seal_id)]
    row = (
        version,
        round_no,
        step.recorded.type,
        text,
        gm_text,
        waits,
        False,
        step.recorded.recorded_at,
    )
    log.append(_row(LogRow, row))
