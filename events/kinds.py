"""The kinds of stream the store holds, and how a reader tells them apart.

An encounter's stream starts with ``encounter.created`` (or ``.forked``) and is decoded
by its ruleset; a campaign's starts with ``campaign.created`` and every one of its events
is tagged ``campaign.*`` (service/campaigns/events.py).  The ``streams`` row records the
kind; a reader of events alone tells a campaign's by the tag, with no lookup.
"""

from __future__ import annotations

from typing import Literal

StreamKind = Literal["encounter", "campaign"]

ENCOUNTER: StreamKind = "encounter"
CAMPAIGN: StreamKind = "campaign"
CAMPAIGN_TAG_PREFIX = "campaign."
CAMPAIGN_FIRST = "campaign.created"


def of_campaign(event_type: str) -> bool:
    """Whether an event of this type belongs to a campaign's stream."""
    return event_type.startswith(CAMPAIGN_TAG_PREFIX)
