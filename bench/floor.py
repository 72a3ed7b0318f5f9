"""The framework floor: what a command request costs before the service does anything.

    python -m bench.floor --port 8001 --workers 2

A Litestar app with one route at the command path that decodes the same JSON body into
a msgspec Struct and answers a small JSON document, served exactly as the service is
(``api.serving.run_uvicorn``: uvicorn, uvloop and httptools, the same workers).  No
middleware, no dependencies, no database.  ``bench.throughput --systems floor`` drives it
with the same client and load, so its CPU per request is the least any Litestar service on
this uvicorn setup spends on a command, and the rest of the service's is ours.
"""

from __future__ import annotations

import argparse
from typing import Any
from uuid import UUID

import msgspec
from litestar import Litestar, get, post

from api.serving import run_uvicorn


class CommandBody(msgspec.Struct):
    command: dict[str, Any]
    manual_dice: list[list[int]] | None = None


class Answer(msgspec.Struct):
    encounter_id: UUID
    version: int
    events: list[dict[str, Any]]


@post("/encounters/{encounter_id:uuid}/commands", status_code=200)
async def post_command(encounter_id: UUID, data: CommandBody) -> Answer:
    return Answer(encounter_id=encounter_id, version=1, events=[])


@get("/health/ready")
async def ready() -> None:
    """What ``bench.harness.wait_ready`` asks before the load starts."""


def create_app() -> Litestar:
    return Litestar([post_command, ready], openapi_config=None)


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    run_uvicorn("127.0.0.1", args.port, args.workers, "warning", factory="bench.floor:create_app")


if __name__ == "__main__":
    cli()
