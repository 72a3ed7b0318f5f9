"""The peer: the `eventsourcing` library (PostgreSQL persistence) saving the same events.

An aggregate per encounter whose methods record the same facts our generic ruleset
records for the same command mix (bench/mix.py): a combatant joined, initiative rolled,
an attack rolled (with damage on a hit), damage rolled, the turn passed, a combatant left,
each with a roll record shaped like ours.  Each command is what an eventsourcing
application does per request: get the aggregate (from its aggregate cache, fast-forwarded
from the database), call the method, save.  The library is synchronous, so concurrency is
one thread per client with a connection pool of that size.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from bench.load import Result
from bench.mix import CYCLE, FIGHTERS


def _roll(
    rng: random.Random, roller: str, purpose: str, count: int, sides: int, bonus: int
) -> dict[str, Any]:
    faces = [rng.randint(1, sides) for _ in range(count)]
    return {
        "roll_id": f"r{rng.getrandbits(32)}",
        "roller": roller,
        "purpose": purpose,
        "notation": f"{count}d{sides}+{bonus}",
        "dice": [{"sides": sides, "face": f, "kept": True} for f in faces],
        "modifiers": [{"label": "notation", "value": bonus}],
        "total": sum(faces) + bonus,
        "source": "server",
        "epoch": 1,
        "index": rng.getrandbits(16),
    }


class Encounter(Aggregate):
    @event("Created")
    def __init__(self, name: str) -> None:
        self.name = name
        self.hp: dict[str, int] = {}
        self.order: list[str] = []
        self.turn = 0

    @event("CombatantAdded")
    def add_combatant(self, combatant: str, name: str, hp: int, stats: dict[str, int]) -> None:
        self.hp[combatant] = hp

    @event("InitiativeRolled")
    def roll_initiative(self, results: list[dict[str, Any]], rolls: list[dict[str, Any]]) -> None:
        self.order = sorted({*self.order, *(r["combatant"] for r in results)})

    @event("AttackRolled")
    def attack(
        self, attacker: str, target: str, hit: bool, damage: int, rolls: list[dict[str, Any]]
    ) -> None:
        self.hp[target] -= damage

    @event("DamageDealt")
    def damage(self, target: str, amount: int, rolls: list[dict[str, Any]]) -> None:
        self.hp[target] -= amount

    @event("TurnEnded")
    def next_turn(self) -> None:
        self.turn = (self.turn + 1) % max(1, len(self.order))

    @event("CombatantRemoved")
    def remove_combatant(self, combatant: str) -> None:
        self.hp.pop(combatant, None)
        self.order = [c for c in self.order if c != combatant]


def _apply(enc: Encounter, n: int, rng: random.Random) -> None:
    """The peer's version of bench.mix.step(n): same decision, same kind of record."""
    k, lap = n % CYCLE, n // CYCLE
    joiner = f"r{lap}"
    attacker, target = FIGHTERS[lap % 4], FIGHTERS[(lap + 1 + k) % 4]
    if k == 0:
        enc.add_combatant(joiner, f"Reinforcement {lap}", 1_000_000, {"ac": 11})
    elif k == 1:
        roll = _roll(rng, joiner, "initiative", 1, 20, 0)
        enc.roll_initiative([{"combatant": joiner, "total": roll["total"]}], [roll])
    elif k == CYCLE - 1:
        enc.remove_combatant(joiner)
    elif (k - 2) % 3 == 0:
        attack = _roll(rng, attacker, f"attack on {target}", 1, 20, 5)
        rolls = [attack]
        if attack["total"] >= 12:
            rolls.append(_roll(rng, attacker, f"damage to {target}", 1, 8, 3))
        enc.attack(attacker, target, len(rolls) == 2, sum(r["total"] for r in rolls[1:]), rolls)
    elif (k - 2) % 3 == 1:
        roll = _roll(rng, "gm", f"damage to {target}", 2, 6, 0)
        enc.damage(target, roll["total"], [roll])
    else:
        enc.next_turn()


def make_app(database_url: str, pool_size: int) -> Application[UUID]:
    parts = urlsplit(database_url)
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parts.path.lstrip("/"),
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": parts.username or "postgres",
        "POSTGRES_PASSWORD": parts.password or "",
        "POSTGRES_POOL_SIZE": str(pool_size),
        "POSTGRES_MAX_OVERFLOW": "0",
        "AGGREGATE_CACHE_MAXSIZE": "1000",
        "CREATE_TABLE": "y",
    }
    return Application(env=env)


def setup(app: Application[UUID], tables: int) -> list[UUID]:
    ids = []
    for t in range(tables):
        enc = Encounter(f"table {t}")
        for i, f in enumerate(FIGHTERS):
            enc.add_combatant(f, f.title(), 1_000_000, {"ac": 12, "dex": i})
        enc.roll_initiative([{"combatant": f, "total": 10} for f in FIGHTERS], [])
        app.save(enc)
        ids.append(enc.id)
    return ids


def run(
    app: Application[UUID],
    ids: list[UUID],
    positions: dict[UUID, int],
    clients: int,
    seconds: float,
    warmup: float = 1.0,
) -> Result:
    """Closed loop with ``clients`` threads, each on its own share of the encounters."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    start = time.perf_counter() + warmup
    end = start + seconds

    def client(i: int) -> None:
        mine, rng, j = ids[i::clients], random.Random(i), 0
        local: list[float] = []
        failed = 0
        while True:
            t0 = time.perf_counter()
            if t0 >= end:
                break
            eid = mine[j % len(mine)]
            j += 1
            ok = True
            try:
                enc: Encounter = app.repository.get(eid)
                _apply(enc, positions[eid], rng)
                app.save(enc)
                positions[eid] += 1
            except Exception:
                ok = False
            t1 = time.perf_counter()
            if t0 >= start and t1 <= end:
                local.append((t1 - t0) * 1000)
                failed += not ok
        with lock:
            latencies.extend(local)
            errors[0] += failed

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()
    return Result("eventsourcing (peer)", clients, len(latencies), errors[0], seconds, latencies)
