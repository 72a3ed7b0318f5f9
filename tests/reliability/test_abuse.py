"""Abuse: oversized bodies, deeply nested JSON, a million dice, ten thousand combatants,
bytes that are not UTF-8.  Each is refused quickly with a problem document that says why,
and the service stays healthy (it answers readiness and takes a legal command after)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest

from tests.reliability.http import Table, fighter, open_table, post_raw
from tests.support.processes import running_service

BOUND = 2.0
"""Seconds within which any abusive request must be refused (generously above normal)."""

_json = msgspec.json.encode


def _command(command: dict[str, Any], **extra: Any) -> bytes:
    return _json({"command": command, **extra})


ABUSE: dict[str, tuple[bytes, str, int, str]] = {
    # name: (body, content type, expected status, fragment of the detail)
    "oversized body": (
        _command({"type": "generic.next_turn"}, pad="x" * 5_000_000),
        "application/json",
        413,
        "larger than",
    ),
    "deeply nested JSON": (
        b'{"command": {"type": "generic.add_combatant", "id": "n", "name": "n", "hp": 1, "stats": '
        + b'{"a":' * 10_000
        + b"1"
        + b"}" * 10_000
        + b"}}",
        "application/json",
        400,
        # Strict decoding (api/http/strict_input.py) stops at the first value of the wrong type,
        # before following the nesting.
        "Expected `int`, got `object` at `command.stats[...]`",
    ),
    "nested arrays": (
        b"[" * 30_000 + b"]" * 30_000,
        "application/json",
        400,
        "Expected `object`, got `array`",
    ),
    "damage of 10^400": (
        b'{"command": {"type": "generic.damage", "target": "a", "amount": 1' + b"0" * 400 + b"}}",
        "application/json",
        400,
        "",
    ),
    "a million dice": (
        _command({"type": "generic.damage", "target": "a", "notation": "1000000d6"}),
        "application/json",
        422,
        "limit",
    ),
    "a million dice in an attack": (
        _command(
            {
                "type": "generic.attack",
                "attacker": "a",
                "target": "b",
                "notation": "1d20",
                "damage": "1000d6+1000d6+1000d6",
            }
        ),
        "application/json",
        422,
        "limit",
    ),
    "ten thousand combatants rolling initiative": (
        _command(
            {"type": "generic.roll_initiative", "combatants": [f"c{i}" for i in range(10_000)]}
        ),
        "application/json",
        413,
        "",
    ),
    "ten thousand short ids rolling initiative": (
        _command({"type": "generic.roll_initiative", "combatants": ["a"] * 10_000}),
        "application/json",
        422,
        "",
    ),
    "ten thousand manual dice lists": (
        _command({"type": "generic.next_turn"}, manual_dice=[[1]] * 10_000),
        "application/json",
        400,
        "",
    ),
    "not UTF-8": (b'{"command": {"type": "\xff\xfe\xfa"}}', "application/json", 400, "UTF-8"),
    "latin-1 body": (
        '{"command": {"type": "généric"}}'.encode("latin-1"),
        "application/json",
        400,
        "UTF-8",
    ),
    "NUL bytes": (b'{"command": {"type": "generic.next_turn\x00"}}', "application/json", 400, ""),
    "escaped NUL in a name": (
        _command({"type": "generic.add_combatant", "id": "nul", "name": "a\u0000b", "hp": 5}),
        "application/json",
        400,
        "NUL",
    ),
}


@pytest.fixture(scope="module")
def abused(database_url: str) -> Iterator[tuple[httpx.Client, Table]]:
    with (
        running_service(database_url) as service,
        httpx.Client(base_url=service.url, timeout=30) as http,
    ):
        yield http, open_table(service.url, "abuse")


@pytest.mark.parametrize("name", list(ABUSE))
def test_abuse_is_refused_quickly_and_clearly(
    abused: tuple[httpx.Client, Table], name: str
) -> None:
    http, table = abused
    body, content_type, status, fragment = ABUSE[name]
    before = http.get(f"/encounters/{table.encounter_id}", headers=table.headers).json()["version"]
    started = time.perf_counter()
    response = post_raw(http, table, body, content_type)
    elapsed = time.perf_counter() - started
    assert response.status_code == status, response.text[:500]
    assert elapsed < BOUND, f"{name} took {elapsed:.2f} s"
    assert response.headers["content-type"].startswith("application/problem+json")
    detail = response.json()["detail"]
    assert detail and fragment in detail, detail
    assert len(response.content) < 10_000, "the refusal must not echo the abuse back"
    # Healthy afterwards, and nothing was appended.
    assert http.get("/health/ready").status_code == 200
    after = http.get(f"/encounters/{table.encounter_id}", headers=table.headers).json()["version"]
    assert after == before


def test_many_combatants_one_by_one_stay_fast(abused: tuple[httpx.Client, Table]) -> None:
    """A roster grown by single commands: each command folds and stores the whole state,
    so the cost per command must stay bounded as the roster grows."""
    http, table = abused
    timings = []
    for i in range(300):
        started = time.perf_counter()
        r = post_raw(http, table, _command(fighter(f"m{i}")), "application/json")
        timings.append(time.perf_counter() - started)
        assert r.status_code in (200, 422), r.text
    assert max(timings[-20:]) < BOUND
