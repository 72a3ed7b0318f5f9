"""Hypothesis on command decoding over HTTP, against a running service: any body at all,
from random bytes to almost-valid commands, is answered below 500, and every refusal is
a problem document that says what was wrong."""

from __future__ import annotations

import time
from typing import Any

import httpx
import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.registry import all_command_types
from tests.reliability.http import Table, post_raw

TAGS = sorted(str(t.__struct_config__.tag) for t in all_command_types())
FIELDS = sorted({f.name for t in all_command_types() for f in msgspec.structs.fields(t)})

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(["a", "b", "1d20+5", "d6!", "1000000d6", "ac", "hp", "stat:ac"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
commands = st.builds(
    lambda tag, fields: {"type": tag, **fields},
    st.sampled_from([*TAGS, "generic.nope", "", "GENERIC.ATTACK"]),
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6),
)
faces = st.lists(st.lists(st.integers(-5, 20_000), max_size=5), max_size=4)
bodies = st.one_of(
    st.fixed_dictionaries(
        {"command": commands},
        optional={"manual_dice": st.one_of(faces, json_values), "hidden": json_values},
    ).map(msgspec.json.encode),
    json_values.map(msgspec.json.encode),
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-16")),
)
content_types = st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded"]
)


def assert_refused_clearly(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json")
        problem: dict[str, Any] = response.json()
        assert problem["status"] == response.status_code
        assert isinstance(problem["detail"], str) and problem["detail"].strip()


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies, content_type=content_types)
def test_any_command_body_is_answered_below_500_with_a_reason(
    http: httpx.Client, table: Table, body: bytes, content_type: str
) -> None:
    started = time.perf_counter()
    response = post_raw(http, table, body, content_type)
    assert time.perf_counter() - started < 2.0
    assert_refused_clearly(response)


def test_service_is_ready_after_fuzzing(http: httpx.Client) -> None:
    assert http.get("/health/ready").status_code == 200
