"""The `aeon-ledger` command: serve, demo, migrate, projections rebuild."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, BinaryIO

import msgspec

from api.serving import run_uvicorn
from api.settings import Settings
from telemetry.multiprocess import prepare_directory

if TYPE_CHECKING:
    from litestar import Litestar

    from api.cli.archive_import import Imported


def _app(settings: Settings) -> Litestar:
    """The service's app, built in each worker from the settings the command line gave
    (uvicorn pickles this, as a partial, into every worker it starts)."""
    from api.app import create_app

    return create_app(settings)


def _serve(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    database_url = args.database_url or settings.database_url
    handle = None
    if database_url is None:
        from api.cli.embedded import start_embedded_postgres, with_embedded_chain_key

        data_dir = args.data_dir or settings.data_dir
        print(
            f"aeon-ledger: no DATABASE_URL, starting embedded PostgreSQL in {data_dir}/pgdata",
            flush=True,
        )
        if settings.chain_key is None:
            settings = with_embedded_chain_key(settings, data_dir)
            print(f"aeon-ledger: signing stream heads with the key in {data_dir}/chain-key")
        handle, database_url = start_embedded_postgres(data_dir)
    host, port = args.host or settings.host, args.port or settings.port
    settings = msgspec.structs.replace(
        settings,
        database_url=database_url,
        redis_url=args.redis_url or settings.redis_url,
        host=host,
        port=port,
    )
    print(f"aeon-ledger: serving on http://{host}:{port} (API docs at /schema)", flush=True)
    if handle is not None:
        # uvicorn re-raises SIGTERM after its graceful shutdown, and a closed terminal sends
        # SIGHUP; leaving through SystemExit rather than the default handlers lets the
        # embedded PostgreSQL stop cleanly in the finally below.
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, lambda *_: sys.exit(0))
    try:
        # Before any worker imports prometheus_client (telemetry/multiprocess.py).
        with prepare_directory(args.workers):
            run_uvicorn(
                host,
                port,
                args.workers,
                args.log_level,
                partial(_app, settings),
                trusted_proxies=settings.trusted_proxies,
            )
    finally:
        if handle is not None:
            handle.cleanup()
    return 0


def _database_url(args: argparse.Namespace) -> tuple[object, str, Settings]:
    """The database a maintenance command works on, and the settings it works with: on
    the embedded default, with the data folder's chain key (an import signs with the key
    the service uses)."""
    settings = Settings.from_env()
    url = args.database_url or settings.database_url
    if url:
        return None, url, settings
    from api.cli.embedded import start_embedded_postgres, with_embedded_chain_key

    data_dir = args.data_dir or settings.data_dir
    handle, url = start_embedded_postgres(data_dir)
    return handle, url, with_embedded_chain_key(settings, data_dir)


def _rebuild(args: argparse.Namespace) -> int:
    from api.app import open_pool
    from projections.rebuild import DamagedStream, rebuild_all, rebuild_all_in_processes

    handle, url, _ = _database_url(args)

    damaged: list[DamagedStream] = []

    async def run() -> tuple[int, int]:
        pool = await open_pool(Settings(database_url=url))  # (applies migrations first)
        try:
            if args.processes > 1:
                return await rebuild_all_in_processes(url, args.processes, damaged)
            return await rebuild_all(pool, damaged=damaged)
        finally:
            await pool.close()

    streams, events = asyncio.run(run())
    print(f"rebuilt read models of {streams} encounters from {events} events")
    del handle
    for stream in damaged:
        print(
            f"aeon-ledger projections rebuild: not rebuilt, its read models left as they"
            f" were: {stream} (GET /encounters/{stream.stream_id}/verify says more)",
            file=sys.stderr,
        )
    return 1 if damaged else 0


def _migrate(args: argparse.Namespace) -> int:
    from api.app import open_pool

    handle, url, _ = _database_url(args)

    async def run() -> None:
        pool = await open_pool(Settings(database_url=url))
        await pool.close()

    asyncio.run(run())
    print("migrations are up to date")
    del handle
    return 0


def _demo(args: argparse.Namespace) -> int:
    from api.cli.demo import run_demo

    return run_demo(args.url)


def _import(args: argparse.Namespace) -> int:
    from api.app import open_pool
    from api.cli.archive_import import import_archive
    from events.archive import BrokenArchive
    from events.archive_reading import StreamExists
    from events.provenance import ChainKeys
    from service.registry import UnknownRuleset

    handle, url, settings = _database_url(args)

    async def run(source: BinaryIO) -> Imported:
        pool = await open_pool(Settings(database_url=url))  # (applies migrations first)
        try:
            # Line by line as the file is read: an archive never sits in memory whole.
            keys = ChainKeys(
                own=settings.chain_key_bytes,
                trusted=tuple(k.encode() for k in settings.trusted_chain_keys),
            )
            return await import_archive(pool, source, keys)
        finally:
            await pool.close()

    try:
        if args.file == "-":
            imported = asyncio.run(run(sys.stdin.buffer))
        else:
            with open(args.file, "rb") as source:
                imported = asyncio.run(run(source))
    except (BrokenArchive, StreamExists, UnknownRuleset) as exc:
        print(f"aeon-ledger import: nothing was imported: {exc}", file=sys.stderr)
        return 1
    finally:
        del handle
    info = imported.gm_token.info
    print(
        f"imported encounter {imported.encounter_id}"
        f" ({imported.events} events, hash chain verified, {_attested(imported)})"
    )
    print(f"GM token {info.token_id}: {imported.gm_token.token}")
    if not imported.server_dice:
        print(
            "the open dice epoch's seed was not in the archive (a GM export): server rolls"
            " are refused, enter dice by hand; export with the service key and seeds=all"
            " to move a game with its server dice"
        )
    return 0


def _attested(imported: Imported) -> str:
    if imported.attestation == "unattested":
        return (
            "unattested: no signature this service can check, so verify will report the"
            " history as imported, unattested"
        )
    who = "this service" if imported.attestation == "this-service" else "a trusted service"
    return f"attested by {who} up to version {imported.events}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="aeon-ledger", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser(
        "serve", help="run the HTTP API (embedded PostgreSQL without DATABASE_URL)"
    )
    serve.add_argument("--host", help="default: $HOST or 127.0.0.1")
    serve.add_argument("--port", type=int, help="default: $PORT or 8000")
    serve.add_argument("--database-url", help="default: $DATABASE_URL, else embedded PostgreSQL")
    serve.add_argument("--redis-url", help="default: $REDIS_URL, else in-process fan-out")
    serve.add_argument(
        "--data-dir", help="embedded data folder (default: $AEON_DATA_DIR or .aeon-ledger)"
    )
    serve.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(func=_serve)

    demo = sub.add_parser("demo", help="play a short scripted encounter against a running service")
    demo.add_argument("--url", default=os.environ.get("AEON_URL", "http://127.0.0.1:8000"))
    demo.set_defaults(func=_demo)

    for name, func, text in (("migrate", _migrate, "apply database migrations and exit"),):
        p = sub.add_parser(name, help=text)
        p.add_argument("--database-url")
        p.add_argument("--data-dir")
        p.set_defaults(func=func)

    load = sub.add_parser(
        "import", help="take an encounter archive (GET /encounters/{id}/export) into this service"
    )
    load.add_argument("file", help="the .jsonl archive, or - for standard input")
    load.add_argument("--database-url")
    load.add_argument("--data-dir")
    load.set_defaults(func=_import)

    projections = sub.add_parser("projections", help="read-model maintenance")
    proj_sub = projections.add_subparsers(dest="action", required=True)
    rebuild = proj_sub.add_parser("rebuild", help="re-derive every read model from the events")
    rebuild.add_argument("--database-url")
    rebuild.add_argument("--data-dir")
    rebuild.add_argument(
        "--processes",
        type=int,
        default=1,
        help="worker processes that fold in parallel (default 1, which leaves the other"
        " cores to a service that keeps running; one per core is fastest)",
    )
    rebuild.set_defaults(func=_rebuild)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
