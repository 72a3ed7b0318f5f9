"""Benchmark: what strict decoding adds to a request with a body (api/http/strict_input.py).

    python -m bench.strict_input            # microseconds per body, 20,000 of each

The hook decodes each body once more, strictly, into the route's body type, and scans it
for duplicated keys; Litestar's own (lax) decoding still follows.  Printed per body: the
strict decode, the duplicate-key scan, and Litestar's lax decode-and-convert for scale.
No database: the three steps are pure CPU, timed in this process.
"""

from __future__ import annotations

import argparse
import timeit
from typing import Annotated, Any

import msgspec
from litestar.params import Body

from api.http.strict_input import _refuse_duplicate_keys
from api.schemas import CommandBody, CreateEncounter
from bench.harness import print_table

BODIES: dict[str, tuple[Any, bytes]] = {
    "attack with manual dice": (
        CommandBody,
        b'{"command": {"type": "generic.attack", "attacker": "aria", "target": "grak", '
        b'"notation": "1d20+5", "damage": "1d8+3", "modifiers": [{"label": "bless", '
        b'"value": 2}]}, "manual_dice": [[16], [5]]}',
    ),
    "next turn": (CommandBody, b'{"command": {"type": "generic.next_turn"}}'),
    "create encounter": (
        CreateEncounter,
        b'{"ruleset": "aeonisk", "name": "Cargo hold", "options": {"shock_init_penalty": 5}}',
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000)
    n = parser.parse_args().number
    rows = []
    for name, (body_type, body) in BODIES.items():
        strict = msgspec.json.Decoder(Annotated[body_type, Body()], strict=True)

        def lax(body: bytes = body, body_type: Any = body_type) -> Any:
            return msgspec.convert(msgspec.json.decode(body), body_type, strict=False)

        def per_body(fn: Any) -> str:
            return f"{timeit.timeit(fn, number=n) / n * 1e6:.1f}"

        rows.append(
            [
                name,
                str(len(body)),
                per_body(lambda: strict.decode(body)),  # noqa: B023
                per_body(lambda: _refuse_duplicate_keys(body)),  # noqa: B023
                per_body(lax),
            ]
        )
    print_table(
        "Strict input, per body",
        ["body", "bytes", "strict us", "duplicates us", "lax (Litestar) us"],
        rows,
    )


if __name__ == "__main__":
    main()
