"""A table of one secrecy scenario: set up by the GM, a secret command made, and read back
as the player, the spectator and the GM see it."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from tests.e2e.helpers import Client, command
from tests.e2e.secrecy.scenarios import Scenario
from tests.support.live import bearer


class Table:
    """An encounter of one scenario, with the GM's answer to the secret command."""

    def __init__(self, client: Client, eid: str, player: str, spectator: str, before: int) -> None:
        self.client, self.eid, self.before = client, eid, before
        self.player, self.spectator = player, spectator
        self.secret_events: list[dict[str, Any]] = []

    async def get(self, path: str, *, player: bool = True) -> Any:
        """The GM's answer, or the player's, checked to be the spectator's byte for byte."""
        headers = bearer(self.player) if player else {}
        response = await self.client.get(f"/encounters/{self.eid}{path}", headers=headers)
        assert response.status_code == 200, (path, response.text)
        if player:
            watched = await self.client.get(
                f"/encounters/{self.eid}{path}", headers=bearer(self.spectator)
            )
            assert watched.status_code == 200, (path, watched.text)
            assert watched.content == response.content, path
        return response.json() if "json" in response.headers["content-type"] else response.text

    @property
    def inner(self) -> list[dict[str, Any]]:
        """The events the secret command decided: inside its one envelope."""
        (envelope,) = self.secret_events
        assert envelope["type"] == "encounter.sealed"
        events: list[dict[str, Any]] = envelope["data"]["events"]
        return events

    @property
    def seal_id(self) -> str:
        return str(self.secret_events[0]["data"]["seal_id"])

    @property
    def rolls(self) -> list[dict[str, Any]]:
        return [r for e in self.inner for r in e["data"].get("rolls", [])]

    def numbers(self) -> set[str]:
        """Faces and totals of the secret rolls, as they would be written in a line."""
        found = {str(r["total"]) for r in self.rolls}
        found |= {str(d["face"]) for r in self.rolls for d in r["dice"]}
        return found


async def play(
    client: Client, ruleset: str, scenario: Scenario, faces: list[list[int]] | None = None
) -> Table:
    """The scenario's table after its secret command, rolled with the scenario's faces or
    with ``faces`` (then ones are added where the command needs more dice, as a GM at the
    table would roll on)."""
    created = await client.post(
        "/encounters",
        json={"ruleset": ruleset, "name": f"Secrets of {ruleset}", "options": scenario.options},
    )
    assert created.status_code == 201, created.text
    eid = created.json()["encounter_id"]
    for cmd, dice in scenario.setup:
        await command(client, eid, cmd, manual=dice)
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": scenario.player})
    assert minted.status_code == 201, minted.text
    watcher = await client.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    assert watcher.status_code == 201, watcher.text
    head = await client.get(f"/encounters/{eid}")
    table = Table(
        client, eid, minted.json()["token"], watcher.json()["token"], head.json()["version"]
    )
    cmd, dice = scenario.secret
    dice = [list(roll) for roll in faces or dice]
    for _ in range(10):
        response = await client.post(
            f"/encounters/{eid}/commands",
            json={"command": cmd, "manual_dice": dice, "hidden": True},
            headers={"Idempotency-Key": f"gm-secret-{eid}-{sum(map(len, dice))}"},
        )
        needed = response.json().get("dice_needed") if response.status_code == 422 else None
        if needed is None:
            break
        dice += [[] for _ in range(needed["roll"] - len(dice))]
        dice[needed["roll"] - 1] += [1] * len(needed["dice"])
    assert response.status_code == 200, response.text
    table.secret_events = response.json()["events"]
    assert table.rolls and all(r["hidden"] for r in table.rolls)
    return table


def mentions(text: str, numbers: set[str]) -> set[str]:
    return {n for n in numbers if re.search(rf"(?<![\w.#-]){re.escape(n)}(?![\w.-])", text)}


def without_ids(value: Any, eid: str) -> Any:
    """A player's read with the encounter's own id, times and token ids left out, which
    differ between any two encounters, secret or not."""
    text = msgspec.json.encode(value).decode().replace(eid, "<encounter>")
    text = re.sub("[0-9a-f]{64}", "<seed hash>", text)  # each encounter's own seeds
    decoded = msgspec.json.decode(text)

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            drop = {"recorded_at", "hash", "prev_hash", "global_position", "metadata",
                    "commitment", "client_seed", "created_at", "updated_at",
                    "secret_commitment", "asked_by"}  # fmt: skip
            return {k: strip(v) for k, v in node.items() if k not in drop}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return strip(decoded)
