"""Retry delays and delivery ids of webhooks."""

from __future__ import annotations

import random
import uuid

from api.webhooks.worker import backoff, delivery_id


def test_retries_back_off_exponentially_with_jitter_up_to_the_cap() -> None:
    rng = random.Random(7)
    for failures in range(1, 15):
        nominal = min(900.0, 2.0 ** (failures - 1))
        delays = [backoff(failures, 1.0, 900.0, rng) for _ in range(200)]
        assert all(nominal / 2 <= d <= nominal for d in delays), failures
        assert len(set(delays)) > 100  # jittered, not in lockstep
    assert backoff(10_000, 1.0, 900.0, rng) <= 900.0


def test_a_delivery_id_names_one_event_of_one_webhook() -> None:
    webhook, other, stream = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    assert delivery_id(webhook, stream, 3) == delivery_id(webhook, stream, 3)
    ids = {delivery_id(w, stream, v) for w in (webhook, other) for v in range(1, 50)}
    assert len(ids) == 98
    assert delivery_id(webhook, stream, 3).startswith("msg_")
