"""Every metric the service exposes besides Litestar's HTTP ones, defined in one place
(name, type, labels, help) with the thin functions the code calls where it knows the fact.

docs/metrics.md lists them all.  prometheus_client's multiprocess mode (set up by
``aeon-ledger serve --workers N``, telemetry/multiprocess.py) keeps each worker's values in
files that ``/metrics`` adds up; gauges say how they add up (``livesum``: the sum over
the workers alive).  ``set_enabled(False)`` turns every call here into a no-op: the benchmark runs
with metrics off for comparison (``AEON_METRICS=off``).
"""

from __future__ import annotations

import collections
from collections.abc import Iterable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

from telemetry import multiprocess

multiprocess.use_cached_pid()
_on = True


def set_enabled(on: bool) -> None:
    """Record, or record nothing from now on (this process: the app being created says)."""
    global _on
    _on = on


def enabled() -> bool:
    return _on


EVENTS_APPENDED = Counter(
    "aeon_events_appended_total",
    "Events appended to the store, by ruleset and event type.",
    ["ruleset", "event_type"],
)
COMMANDS = Counter(
    "aeon_commands_total",
    "Commands (write requests to an encounter, and creating one) by outcome: accepted, "
    "or the reason class of a refusal (rule, conflict, auth, rate, invalid, not_found, "
    "unavailable, failed).",
    ["outcome"],
)
GROUP_COMMIT_SIZE = Histogram(
    "aeon_group_commit_size",
    "Writes sent together in one round trip and transaction by the group commit.",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)
POOL_CONNECTIONS = Gauge(
    "aeon_pool_connections",
    "PostgreSQL connections of the pools: open, in use, and the most a pool may open.",
    ["state"],
    multiprocess_mode="livesum",
)
POOL_WAITING = Gauge(
    "aeon_pool_waiting",
    "Tasks waiting for a pooled PostgreSQL connection (sampled every second).",
    multiprocess_mode="livesum",
)
STATE_CACHE = Counter(
    "aeon_state_cache_lookups_total",
    "Lookups of an encounter's state in the process cache: hit (current), stale (behind, "
    "caught up by folding the new events) or miss (loaded from a snapshot and events).",
    ["result"],
)
SNAPSHOT_LOADS = Counter(
    "aeon_snapshot_loads_total",
    "Folds of an encounter from the store: from_snapshot when a snapshot was found, "
    "from_start when every event was folded.",
    ["result"],
)
EVENTS_NOT_FOLDED = Counter(
    "aeon_events_not_folded_total",
    "Stored events a fold could not apply, each answered as an error (event-not-folded).",
)
LIVE_SUBSCRIBERS = Gauge(
    "aeon_live_subscribers",
    "Live-update streams open now.",
    multiprocess_mode="livesum",
)
LIVE_MESSAGES = Counter("aeon_live_messages_total", "Events sent to live-update streams.")
LIVE_WAKEUPS = Counter(
    "aeon_live_wakeups_total", "Wake-ups (and revocation notices) received by live streams."
)
LIVE_POLLS = Counter(
    "aeon_live_fallback_polls_total",
    "Reads of PostgreSQL by a live stream that no wake-up triggered (the fallback poll).",
)
LIVE_PUBLISHED = Counter(
    "aeon_live_published_total",
    "Wake-ups published after commits, by result (ok, failed).",
    ["result"],
)
RATE_LIMITED = Counter("aeon_rate_limited_total", "Requests refused by the rate limit (429).")
VERIFICATIONS = Counter(
    "aeon_verifications_total",
    "Verify requests, by result (ok, failed).",
    ["result"],
)
VERIFY_FAILURES = Counter(
    "aeon_verify_failures_total",
    "Failed checks of verify requests, by check (chain, dice, head, pin, read_models).",
    ["check"],
)
REBUILD_STREAMS = Counter(
    "aeon_rebuild_streams_total", "Encounters whose read models a rebuild has rewritten."
)
REBUILD_EVENTS = Counter("aeon_rebuild_events_total", "Events a rebuild has folded.")
READS_ROUTED = Counter(
    "aeon_reads_routed_total",
    "Reads of an encounter with read replicas, by kind (request, live) and place (replica, "
    "primary: none had the stated version in time, primary-unstated: none stated).",
    ["kind", "place"],
)


_children: dict[tuple[Any, ...], Any] = {}


def _child(metric: Any, *values: str) -> Any:
    """``metric.labels(*values)``, remembered: the label values here come from short
    fixed sets, and prometheus_client checks and locks on every ``labels`` call."""
    key = (metric, *values)
    child = _children.get(key)
    if child is None:
        child = _children[key] = metric.labels(*values)
    return child


def events_appended(ruleset: str, event_types: Iterable[str]) -> None:
    if _on:
        # One write per type, not per event: each is a write to a shared file with
        # several workers.
        for event_type, count in collections.Counter(event_types).items():
            _child(EVENTS_APPENDED, ruleset, event_type).inc(count)


def command(outcome: str) -> None:
    if _on:
        _child(COMMANDS, outcome).inc()


def group_committed(size: int) -> None:
    if _on:
        GROUP_COMMIT_SIZE.observe(size)


def pool_sampled(open_: int, in_use: int, max_size: int, waiting: int) -> None:
    if _on:
        POOL_CONNECTIONS.labels("open").set(open_)
        POOL_CONNECTIONS.labels("in_use").set(in_use)
        POOL_CONNECTIONS.labels("max").set(max_size)
        POOL_WAITING.set(waiting)


def state_cache(result: str) -> None:
    if _on:
        _child(STATE_CACHE, result).inc()


def snapshot_load(found: bool) -> None:
    if _on:
        _child(SNAPSHOT_LOADS, "from_snapshot" if found else "from_start").inc()


def event_not_folded() -> None:
    if _on:
        EVENTS_NOT_FOLDED.inc()


def live_subscribed() -> None:
    """A live stream joined its feed: counted until ``live_unsubscribed``.  Not a context
    manager: a stream its connection took over (api/live/follow.py) outlives the code
    that opened it."""
    if _on:
        LIVE_SUBSCRIBERS.inc()


def live_unsubscribed() -> None:
    if _on:
        LIVE_SUBSCRIBERS.dec()


def live_sent(messages: int) -> None:
    if _on and messages:
        LIVE_MESSAGES.inc(messages)


def live_woken() -> None:
    if _on:
        LIVE_WAKEUPS.inc()


def live_polled() -> None:
    if _on:
        LIVE_POLLS.inc()


def live_published(ok: bool) -> None:
    if _on:
        _child(LIVE_PUBLISHED, "ok" if ok else "failed").inc()


def rate_limited() -> None:
    if _on:
        RATE_LIMITED.inc()


def verified(failed_checks: Iterable[str]) -> None:
    if _on:
        failed = list(failed_checks)
        VERIFICATIONS.labels("failed" if failed else "ok").inc()
        for check in failed:
            VERIFY_FAILURES.labels(check).inc()


def rebuilt(streams: int, events: int) -> None:
    if _on:
        REBUILD_STREAMS.inc(streams)
        REBUILD_EVENTS.inc(events)


def read_routed(kind: str, place: str) -> None:
    if _on:
        _child(READS_ROUTED, kind, place).inc()
