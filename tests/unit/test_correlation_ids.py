"""Fresh correlation ids (api/http/request_log.py): this process's count of requests
under its keyed hash, 32 hex digits, never the same twice."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from api.http import request_log


def test_a_fresh_id_is_the_keyed_hash_of_the_next_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_log, "_numbers", itertools.count(41))
    first, second = request_log._fresh_id(), request_log._fresh_id()
    for count, fresh in ((41, first), (42, second)):
        expected = hashlib.blake2b(
            count.to_bytes(8, "big"), key=request_log._ID_KEY, digest_size=16
        ).hexdigest()
        assert fresh == expected and len(fresh) == 32
    assert first != second
