"""Translation between a ruleset's typed Structs and the store's JSON envelopes.

One codec per ruleset, built once: it knows the union of core and ruleset event types,
the upcasters for old event versions, and the concrete type of the encounter state
(for snapshots and the inline state projection).
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import msgspec

from events.envelope import NewEvent, RecordedEvent
from events.upcasting import Upcasters
from service.core_events import CORE_EVENT_TYPES, Sealed
from service.encounter import Encounter
from service.health_seal import with_committed_health
from service.ruleset import Ruleset, RuleViolation, tag_of


class EventCodec:
    def __init__(self, ruleset: Ruleset[Any, Any, Any, Any]) -> None:
        self.ruleset = ruleset
        self.event_types: tuple[type[msgspec.Struct], ...] = (
            *CORE_EVENT_TYPES,
            *ruleset.event_types,
        )
        self.event_union: Any = functools.reduce(operator.or_, self.event_types)
        self.command_union: Any = functools.reduce(operator.or_, ruleset.command_types)
        self.upcasters = Upcasters(ruleset.event_versions, ruleset.upcasters)
        self.state_type: Any = Encounter[ruleset.state_type]  # type: ignore[name-defined]
        self._state_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(self.state_type)
        self._encoder = msgspec.json.Encoder()
        self._event_decoders: dict[str, tuple[msgspec.json.Decoder[Any], int]] = {
            tag: (msgspec.json.Decoder(t), self.upcasters.current_version(tag))
            for t in self.event_types
            for tag in [str(t.__struct_config__.tag)]
        }
        """Per event type: a decoder of its Struct, and the version it decodes."""
        self._event_types_by_tag: dict[str, type[msgspec.Struct]] = {
            str(t.__struct_config__.tag): t for t in self.event_types
        }

    def to_new_event(self, event: msgspec.Struct) -> NewEvent:
        data = msgspec.to_builtins(event)
        tag = data.pop("type")
        if type(event) is Sealed:
            del data["inner"]  # the typed twin of ``events``, for the fold only
        data = with_committed_health(self.ruleset, tag, data)
        return NewEvent(type=tag, data=data, type_version=self.upcasters.current_version(tag))

    def stored_form(self, event: msgspec.Struct) -> dict[str, Any]:
        """An inner event of an envelope as stored: type, type_version and data."""
        new = self.to_new_event(event)
        return {"type": new.type, "type_version": new.type_version, "data": new.data}

    def from_recorded(self, recorded: RecordedEvent) -> Any:
        """Converted into the Struct its type names, not into the union of all of them:
        the same result, about 25 times faster (bench/README.md); only a type this
        codec does not know goes through the union, for its error message."""
        return self._typed(recorded.type, recorded.type_version, recorded.data)

    def _typed(self, event_type: str, type_version: int, stored: dict[str, Any]) -> Any:
        data = self.upcasters.upcast(event_type, type_version, stored)
        known = self._event_types_by_tag.get(event_type)
        if known is Sealed:
            return self._opened(msgspec.convert(data, Sealed))
        if known is not None:
            return msgspec.convert(data, known)
        return msgspec.convert({**data, "type": event_type}, self.event_union)

    def _opened(self, sealed: Sealed) -> Sealed:
        """The envelope with its inner events typed, for the fold."""
        inner = tuple(self._typed(e["type"], e["type_version"], e["data"]) for e in sealed.events)
        return msgspec.structs.replace(sealed, inner=inner)

    def decode_stored(self, event_type: str, type_version: int, data_json: str | bytes) -> Any:
        """The typed event of a stored row's ``data`` JSON text: what ``from_recorded``
        gives for the same row, for readers of many events (a rebuild).

        Data already at its type's current version is decoded straight into that type's
        Struct, without the dict and the ``convert`` in between (several times faster;
        stored data has no ``type`` key, the column says it).  Older data, and a type this
        codec does not know, go the way ``from_recorded`` goes: upcasters, then convert.
        """
        known = self._event_decoders.get(event_type)
        if known is None or type_version < known[1]:
            data = self.upcasters.upcast(event_type, type_version, msgspec.json.decode(data_json))
            return msgspec.convert({**data, "type": event_type}, self.event_union)
        decoded = known[0].decode(data_json)
        return self._opened(decoded) if type(decoded) is Sealed else decoded

    def encode_state(self, encounter: Encounter[Any]) -> bytes:
        return self._encoder.encode(encounter)

    def decode_state(self, raw: bytes | str) -> Encounter[Any]:
        decoded: Encounter[Any] = self._state_decoder.decode(raw)
        return decoded

    def owns_command(self, command: msgspec.Struct) -> bool:
        return isinstance(command, self.ruleset.command_types)

    def ensure_owns(self, command: msgspec.Struct) -> None:
        """Refuse a command of another ruleset than the encounter's, saying so."""
        if not self.owns_command(command):
            raise foreign_command(tag_of(type(command)), self.ruleset.name)


def foreign_command(tag: str, ruleset: str) -> RuleViolation:
    """The refusal of a command of another ruleset than the encounter's: the encounter
    runs its own rules, and this command is not one of them."""
    return RuleViolation(f"{tag} is not a command of the {ruleset!r} ruleset this encounter runs")
