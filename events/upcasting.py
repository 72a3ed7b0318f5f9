"""Event schema evolution: stored data is lifted to the current shape on read.

Each event type has a current version (1 unless stated).  A stored event of an older
version passes through the chain of upcasters ``(type, v) -> (type, v+1)`` before it is
decoded, so deciders and projections only ever see the current shape, and old events
are never rewritten.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class MissingUpcaster(LookupError):
    pass


class Upcasters:
    def __init__(
        self,
        current_versions: Mapping[str, int] | None = None,
        steps: Mapping[tuple[str, int], Upcaster] | None = None,
    ) -> None:
        self._current = dict(current_versions or {})
        self._steps = dict(steps or {})

    def current_version(self, event_type: str) -> int:
        return self._current.get(event_type, 1)

    def upcast(self, event_type: str, version: int, data: dict[str, Any]) -> dict[str, Any]:
        target = self.current_version(event_type)
        while version < target:
            step = self._steps.get((event_type, version))
            if step is None:
                raise MissingUpcaster(f"no upcaster for {event_type} v{version} -> v{version + 1}")
            data = step(data)
            version += 1
        return data
