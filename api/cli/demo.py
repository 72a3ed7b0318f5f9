"""`aeon-ledger demo`: play a short scripted encounter against a running service.

It goes through the public HTTP API only, as a front end would, and prints the replay
log, so a newcomer sees rolls, hits, damage and a condition expiring within a minute.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import httpx

Step = tuple[dict[str, Any], list[list[int]] | None]
"""A command and, where the GM rolls physical dice, the faces entered (else server dice)."""

SCRIPT: list[Step] = [
    (
        {
            "type": "generic.add_combatant",
            "id": "aria",
            "name": "Aria",
            "hp": 14,
            "stats": {"ac": 15, "dex": 3},
        },
        None,
    ),
    (
        {
            "type": "generic.add_combatant",
            "id": "borin",
            "name": "Borin",
            "hp": 18,
            "stats": {"ac": 17, "dex": 0},
        },
        None,
    ),
    (
        {
            "type": "generic.add_combatant",
            "id": "grak",
            "name": "Grak the Goblin",
            "hp": 11,
            "stats": {"ac": 13, "dex": 2},
        },
        None,
    ),
    ({"type": "generic.roll_initiative"}, [[15], [9], [4]]),
    (
        {
            "type": "generic.attack",
            "attacker": "aria",
            "target": "grak",
            "notation": "1d20+5",
            "damage": "1d8+3",
        },
        [[16], [5]],
    ),
    (
        {
            "type": "generic.add_condition",
            "target": "grak",
            "condition": "frightened",
            "duration_rounds": 1,
        },
        None,
    ),
    ({"type": "generic.next_turn"}, None),
    (
        {"type": "generic.damage", "target": "borin", "notation": "1d4", "source": "falling rocks"},
        None,
    ),
    ({"type": "generic.heal", "target": "borin", "notation": "1d4+1", "source": "potion"}, None),
    ({"type": "generic.next_turn"}, None),
    (
        {
            "type": "generic.attack",
            "attacker": "grak",
            "target": "borin",
            "notation": "1d20+4",
            "damage": "1d6+2",
        },
        None,
    ),
    ({"type": "generic.next_turn"}, None),
    ({"type": "generic.next_turn"}, None),
    (
        {
            "type": "generic.attack",
            "attacker": "borin",
            "target": "grak",
            "notation": "1d20+6",
            "damage": "2d6+2",
        },
        [[12], [3, 1]],
    ),
    (
        {
            "type": "generic.adjudicate",
            "ruling": {
                "type": "add_condition",
                "target": "aria",
                "condition": "inspired",
                "duration_rounds": 2,
            },
            "reason": "Aria's battle cry as the goblin falls",
        },
        None,
    ),
    ({"type": "generic.end_encounter"}, None),
]


def run_demo(url: str) -> int:
    try:
        with httpx.Client(base_url=url, timeout=10) as client:
            created = client.post(
                "/encounters",
                json={"ruleset": "generic", "name": "Ambush at the ford"},
                headers=service_key_header(),
            )
            created.raise_for_status()
            encounter_id = created.json()["encounter_id"]
            # The GM token comes with the creation, once; every later request carries it.
            gm_token = created.json()["gm_token"]
            client.headers["Authorization"] = f"Bearer {gm_token}"
            for command, manual in SCRIPT:
                body: dict[str, Any] = {"command": command}
                if manual is not None:
                    body["manual_dice"] = manual
                response = client.post(f"/encounters/{encounter_id}/commands", json=body)
                if response.status_code >= 400:
                    problem = response.json()
                    print(f"refused {command['type']}: {problem.get('detail')}", file=sys.stderr)
            client.post(f"/encounters/{encounter_id}/dice/reveal").raise_for_status()
            log = client.get(f"/encounters/{encounter_id}/log.txt")
            log.raise_for_status()
            verify = client.get(f"/encounters/{encounter_id}/verify").json()
    except httpx.HTTPError as exc:
        print(
            f"demo: cannot talk to {url}: {exc}. Is `aeon-ledger serve` running?", file=sys.stderr
        )
        return 1
    print(f"Encounter {encounter_id}\n")
    print(log.text)
    dice = verify["dice"]
    verified = sum(e["verified"] for e in dice["epochs"])
    print(
        f"hash chain ok: {verify['chain']['ok']} ({verify['chain']['events_checked']} events); "
        f"server rolls verified against the revealed seed: {verified}; "
        f"manual rolls: {dice['manual_rolls']}"
    )
    base = f"{url}/encounters/{encounter_id}"
    print(f"full state: {base}   rolls: {base}/rolls")
    print(f"send this GM token with them: Authorization: Bearer {gm_token}")
    print(f"or open the table console: {url}/console/#e={encounter_id}&t={gm_token}")
    return 0


def service_key_header() -> dict[str, str]:
    """The service key from the environment, for a service that requires one."""
    key = os.environ.get("AEON_SERVICE_KEY")
    return {"Authorization": f"Bearer {key}"} if key else {}
