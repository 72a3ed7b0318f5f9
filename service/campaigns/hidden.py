"""Which values of a campaign's events only its GM reads, as JSON Pointers (RFC 6901).

The bestiary is the GM's preparation (docs/campaigns.md, "What players read"): a
statblock's sheet and the notation its hit points are rolled with, a monster copy's
rolled hit points and the rolls themselves.  Players read those events without them
(projections/campaign_seen.py); the write commits each of them under a salt
(events/committed_health.py), so the hash chain covers a commitment in their place and
a player can neither test guesses (hp 7, 2d6) against a hash nor fail to recompute a
link from what they read.

The pointers depend on the event's type and on what players read anyway (how many
monsters), never on the hidden values: a key that is present is committed whatever it
holds (a ``null`` notation, no rolls), so the set of commitments a player reads is the
same whichever numbers the GM chose.
"""

from __future__ import annotations

from typing import Any

STATBLOCK_ADDED = "campaign.statblock_added"
ENCOUNTER_STARTED = "campaign.encounter_started"


def gm_only(kind: str, data: dict[str, Any]) -> list[str]:
    """The pointers of the values of ``data`` (an event of type ``kind``) only the GM
    reads; none for an event that hides nothing."""
    if kind == STATBLOCK_ADDED:
        return ["/sheet", "/hit_points"]
    if kind == ENCOUNTER_STARTED:
        monsters = data.get("monsters") or ()
        return [*(f"/monsters/{i}/hit_points" for i in range(len(monsters))), "/rolls"]
    return []
