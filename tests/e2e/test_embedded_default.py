"""The README's first command on a machine with no servers: `aeon-ledger serve` with no
DATABASE_URL and no REDIS_URL starts the embedded PostgreSQL, and the demo plays against it."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx

from bench.harness import stop
from tests.support.ready import wait_until_ready

BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_on_embedded_default_then_demo(tmp_path: Path) -> None:
    unset = ("DATABASE_URL", "REDIS_URL", "AEON_CHAIN_KEY")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(BIN / "aeon-ledger"), "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_until_ready(server, url, time.monotonic() + 90, every=0.5)
        ready = httpx.get(f"{url}/health/ready").json()
        assert ready["checks"]["postgres"] == "ok"
        assert ready["checks"]["redis"] == (
            "not configured (live updates through PostgreSQL LISTEN/NOTIFY: ok)"
        )
        assert (tmp_path / ".aeon-ledger" / "pgdata").is_dir()
        # With no configuration, heads are signed with a key kept in the data folder.
        key_file = tmp_path / ".aeon-ledger" / "chain-key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        created = httpx.post(f"{url}/encounters", json={"ruleset": "generic", "name": "Keyed"})
        eid, gm = created.json()["encounter_id"], created.json()["gm_token"]
        report = httpx.get(
            f"{url}/encounters/{eid}/verify", headers={"Authorization": f"Bearer {gm}"}
        ).json()
        assert report["head"] == {**report["head"], "signed": True, "ok": True}

        demo = subprocess.run(
            [str(BIN / "aeon-ledger"), "demo", "--url", url],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert demo.returncode == 0, demo.stderr
        out = demo.stdout
        assert (
            "rolls 1d20+5 for attack on Grak the Goblin: d20 [16] +5 notation = 21 vs 13: hit"
            in out
        )
        assert "takes 8 damage" in out
        assert "hash chain ok: True" in out
        assert "refused" not in demo.stderr
        # The installed package serves the table console, and the demo links to it.
        assert f"{url}/console/#e=" in out
        page = httpx.get(f"{url}/console/", timeout=10)
        assert page.status_code == 200 and "table console" in page.text
        module = httpx.get(f"{url}/console/js/fairness.js", timeout=10)
        assert "HMAC" in module.text
        assert module.headers["content-type"].startswith(
            ("text/javascript", "application/javascript")
        )
        # Ctrl-C in its terminal: the whole group gets SIGINT; it stops without a
        # traceback and takes the embedded PostgreSQL with it.
        os.killpg(server.pid, signal.SIGINT)
        output, _ = server.communicate(timeout=60)
        assert server.returncode == 0, output
        assert "Traceback" not in output, output
        assert not (tmp_path / ".aeon-ledger" / "pgdata" / "postmaster.pid").exists()
    finally:
        stop(server)
