"""Which encounters the other processes follow, as they announce it, so that a process
sends a wake-up through PostgreSQL only where someone else has a feed to wake.

Why: a ``NOTIFY`` is a transaction of its own, with a transaction id, a commit record and
the notification queue's lock, and every listening process receives and decodes it.
With no subscriber in another process (the common case: one worker, or players who all
landed on the worker that wrote) that is a round trip and a wake-up per command for
nobody: in the throughput benchmark it was a tenth of the service's CPU per command and
a quarter of PostgreSQL's.

How: a process announces on the same channel the encounters it starts and stops
following (``f``, ``u``), its whole set when it (re)connects and every ``refresh``
seconds (``a``), and asks the others for theirs when it (re)connects (``h``).  What a
process no longer refreshes (it died) is forgotten after three refreshes.  An
announcement is a few milliseconds behind the feed it announces, as a Redis subscription
is; a wake-up sent in between is not lost but read late, by the feed's first read after
it subscribes or by its safety-net poll (api/live/feed.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from uuid import UUID


class Interest:
    """The other processes' followed encounters, by process, with when each was heard."""

    def __init__(self, me: str, *, refresh: float) -> None:
        self.me, self.refresh = me, refresh
        self.mine: set[UUID] = set()
        self._theirs: dict[str, tuple[float, set[UUID]]] = {}

    def followed_elsewhere(self, encounter_id: UUID) -> bool:
        return any(encounter_id in followed for _, followed in self._theirs.values())

    def heard(
        self,
        process: str,
        followed: Iterable[UUID],
        dropped: Iterable[UUID],
        *,
        whole: bool,
    ) -> None:
        """``process`` follows ``followed`` (all it follows, if ``whole``) and no longer
        ``dropped``."""
        if process == self.me:
            return
        _, known = self._theirs.get(process, (0.0, set()))
        now = set(followed) if whole else (known | set(followed)) - set(dropped)
        self._theirs[process] = (time.monotonic(), now)

    def forget_silent(self) -> None:
        """Forget processes not heard from for three refreshes: they stopped or lost the
        link (and announce again when they come back)."""
        limit = time.monotonic() - 3 * self.refresh
        for process in [p for p, (heard, _) in self._theirs.items() if heard < limit]:
            del self._theirs[process]
