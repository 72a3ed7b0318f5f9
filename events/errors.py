"""Failures of the event store that callers must tell apart."""

from __future__ import annotations

from uuid import UUID


class StreamNotFound(LookupError):
    def __init__(self, stream_id: UUID) -> None:
        super().__init__(f"stream {stream_id} does not exist")
        self.stream_id = stream_id


class VersionConflict(Exception):
    """The stream moved on since the writer read it: another command was appended first."""

    def __init__(self, stream_id: UUID, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream_id} is at version {actual}, the command expected version {expected}"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class IdempotencyKeyReused(Exception):
    """The same Idempotency-Key came with a different request body."""

    def __init__(self, key: str) -> None:
        super().__init__(
            f"Idempotency-Key {key!r} was already used for a different request on this encounter"
        )
        self.key = key
