"""The bytes of a live stream: Server-Sent Events messages, encoded once per audience.

An audience is whose view of the events a message shows.  Its key is the only thing a
subscriber is matched on (api/live/feed.py), and a key maps to the viewer the encoding is
made for, so a player's stream is given the bytes made of events as players saw them
(projections/seen.py)
and never the GM's.  A role that sees differently gets a key of its own here.
"""

from __future__ import annotations

from uuid import UUID

import msgspec

from api.http.problems import problem
from api.live.subscriber import Audience, Message
from api.schemas import event_out
from events.db import Database
from events.envelope import RecordedEvent
from projections.seen import as_players_saw
from service.tokens import Viewer

VIEWERS: dict[Audience, Viewer] = {"gm": Viewer(role="gm"), "player": Viewer(role="player")}
"""The viewer each audience's encoding is made for."""

_encode = msgspec.json.Encoder().encode


SEES_AS: dict[str, Audience] = {"spectator": "player"}
"""Roles that see exactly what another role sees (docs/access.md: a spectator reads what
players read), so they share its encoding rather than get one of their own."""


def audience_of(viewer: Viewer) -> Audience:
    """The key of the encoding ``viewer`` may receive: the GM's view for the GM and the
    service key, else the view of the viewer's role."""
    audience = "gm" if viewer.is_gm else SEES_AS.get(viewer.role, viewer.role)
    if audience not in VIEWERS:  # a new role must say what it sees before it streams
        raise problem(403, "forbidden", f"live updates have no view for the role {viewer.role}")
    return audience


def preamble(after: int) -> bytes:
    """The first bytes of every stream: where it starts, and the reconnect delay."""
    return b": after version %d\r\nretry: 1000\r\n\r\n" % after


async def encode_for(
    encounter_id: UUID,
    audience: Audience,
    events: list[RecordedEvent],
    db: Database,
) -> list[Message]:
    """Each event as one SSE message (``id`` = stream version, ``event`` = type, ``data``
    = the event as ``GET /events`` shows it to ``audience``), redacted with what ``db``,
    where ``events`` were read, knows of secret rolls."""
    if not VIEWERS[audience].is_gm:
        events = await as_players_saw(db, encounter_id, events)
    shown = [event_out(e) for e in events]
    return [
        Message(
            e.stream_version,
            b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n"
            % (e.stream_version, e.type.encode(), _encode(e)),
        )
        for e in shown
    ]
