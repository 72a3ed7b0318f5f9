"""The log lines of `aeon-ledger serve`: one JSON object per request and per
command on stdout when it is not a terminal, with the correlation id, encounter id, token
id (never the token), command type, outcome and duration; plain text on a terminal."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import asyncpg
import httpx

from tests.conftest import create_database, drop_database
from tests.support.processes import BIN, ROOT, free_port
from tests.support.ready import wait_until_ready


@contextmanager
def serving(database_url: str, stdout: int, stderr: int = subprocess.DEVNULL) -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    proc = subprocess.Popen(
        [str(BIN / "aeon-ledger"), "serve", "--port", str(port), "--database-url", database_url],
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(proc, url, time.monotonic() + 60, path="/health/live")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _play(url: str) -> tuple[str, str, str]:
    """Create an encounter and send one accepted and one refused command; returns the
    encounter id, the GM token and the correlation id sent."""
    created = httpx.post(f"{url}/encounters", json={"ruleset": "generic", "name": "Logs"})
    eid, token = created.json()["encounter_id"], created.json()["gm_token"]
    headers = {"Authorization": f"Bearer {token}", "X-Correlation-ID": "table-7-turn-3"}
    body = {"command": {"type": "generic.add_combatant", "id": "aria", "name": "Aria", "hp": 9}}
    accepted = httpx.post(f"{url}/encounters/{eid}/commands", json=body, headers=headers)
    assert accepted.status_code == 200
    assert accepted.headers["x-correlation-id"] == "table-7-turn-3"
    refused = httpx.post(f"{url}/encounters/{eid}/commands", json=body, headers=headers)
    assert refused.status_code == 422
    return eid, token, "table-7-turn-3"


def test_json_lines_per_request_and_per_command(database_url: str, tmp_path: Any) -> None:
    out = tmp_path / "stdout"
    with out.open("wb") as sink, serving(database_url, sink.fileno()) as url:
        eid, token, correlation = _play(url)
        deadline = time.monotonic() + 10  # the line follows the answer by a moment
        while out.read_text().count(correlation) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    text = out.read_text()
    assert token.split(".", 1)[1] not in text, "the token's secret must never be logged"
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    ours = [line for line in lines if line.get("correlation_id") == correlation]
    assert [line["event"] for line in ours] == ["command", "command"]  # one line each
    for line in ours:
        assert line["method"] == "POST"
        assert line["path"] == f"/encounters/{eid}/commands"
        assert line["route"] == "/encounters/{encounter_id}/commands"
        assert line["encounter_id"] == eid
        assert line["token_id"] == token.split(".", 1)[0]
        assert line["command_type"] == "generic.add_combatant"
        assert line["level"] == "info"
        assert isinstance(line["duration_ms"], float) and line["duration_ms"] > 0
        assert line["timestamp"].endswith("Z")
    accepted, refused = ours
    assert (accepted["outcome"], accepted["status"]) == ("accepted", 200)
    assert (accepted["version"], accepted["events"]) == (3, 1)
    assert (refused["outcome"], refused["status"]) == ("rule", 422)
    assert refused["version"] is None and refused["events"] is None
    # The creation got a correlation id of its own, and the new encounter's id.
    (creation,) = [line for line in lines if line.get("route") == "/encounters"]
    assert creation["event"] == "command" and creation["command_type"] == "encounter.create"
    assert creation["status"] == 201 and len(creation["correlation_id"]) == 32
    assert creation["encounter_id"] == eid
    assert creation["token_id"] is None  # no service key: creating needs no token
    # A read is a request, not a command.
    reads = [line for line in lines if line.get("route") == "/health/live"]
    assert reads and {line["event"] for line in reads} == {"request"}
    assert "command_type" not in reads[0]


def test_plain_text_on_a_terminal(database_url: str) -> None:
    controller, terminal = pty.openpty()
    try:
        with serving(database_url, terminal) as url:
            _, token, correlation = _play(url)
            os.set_blocking(controller, False)
            chunks: list[bytes] = []
            deadline = time.monotonic() + 10  # the lines follow the answers by a moment
            while b"".join(chunks).count(correlation.encode()) < 2:
                assert time.monotonic() < deadline, b"".join(chunks)
                try:
                    chunks.append(os.read(controller, 65536))
                except BlockingIOError:
                    time.sleep(0.05)
    finally:
        os.close(terminal)
        os.close(controller)
    text = b"".join(chunks).decode(errors="replace")
    ours = [line for line in text.splitlines() if correlation in line]
    assert len(ours) == 2, text
    assert not any(line.lstrip().startswith("{") for line in ours)
    assert "outcome=accepted" in ours[0] and "outcome=rule" in ours[1], ours
    assert "command_type=generic.add_combatant" in ours[0]
    assert token.split(".", 1)[1] not in text


async def test_an_unexpected_database_error_is_logged_with_its_stack_trace(
    postgres_url: str, tmp_path: Any
) -> None:
    """An error from PostgreSQL that no route expects (here a table an administrator
    renamed) answers a 500 without internals, and its log line, with the traceback and
    the error's own message, reaches stderr: an asyncpg error carries a metaclass of its
    own, which once made the log line itself fail ("--- Logging error ---")."""
    database_url = await create_database(postgres_url)
    err = tmp_path / "stderr"
    try:
        with (
            err.open("wb") as sink,
            serving(database_url, subprocess.DEVNULL, sink.fileno()) as url,
        ):
            async with httpx.AsyncClient(base_url=url) as http:
                created = await http.post("/encounters", json={"ruleset": "generic", "name": "X"})
                eid, token = created.json()["encounter_id"], created.json()["gm_token"]
                admin = await asyncpg.connect(database_url)
                try:
                    await admin.execute("ALTER TABLE webhooks RENAME TO webhooks_elsewhere")
                finally:
                    await admin.close()
                headers = {"Authorization": f"Bearer {token}"}
                failed = await http.get(f"/encounters/{eid}/webhooks", headers=headers)
            assert failed.status_code == 500
            assert failed.headers["content-type"].startswith("application/problem+json")
            assert "webhooks" not in failed.json()["detail"]
            for _ in range(200):  # the line follows the answer by a moment
                if "UndefinedTableError" in err.read_text():
                    break
                await asyncio.sleep(0.05)
    finally:
        await drop_database(postgres_url, database_url)
    text = err.read_text()
    assert "Logging error" not in text, text
    (line,) = [json.loads(x) for x in text.splitlines() if "unhandled error" in x]
    assert line["level"] == "error" and line["logger"] == "aeon_ledger.api"
    assert "Traceback (most recent call last)" in line["exception"]
    assert 'relation "webhooks" does not exist' in line["exception"]
