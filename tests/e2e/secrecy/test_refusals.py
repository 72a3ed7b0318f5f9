"""The refusal and turn-order oracles in every ruleset, tried the way the attacks were
made (docs/secrecy.md, "Decisions that read secret-influenced state"): two tables whose
hidden GM command differs only in its faces (the scenario's, and others: all ones, or
faces that decide it otherwise).  The player
sends their own next commands and the GM moves the table on in public; the player and
the spectator must read the same in both, and once the GM reveals, the same command is
answered differently where the secret decided it, which is what the held answer hid.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from tests.e2e.helpers import Client
from tests.e2e.secrecy.scenarios import SCENARIOS
from tests.e2e.secrecy.tables import Table, play, without_ids
from tests.support.live import bearer

HELD = "The GM's secret command s1 is still hidden: the GM decides this one"


class Tell(NamedTuple):
    """A player's own command that, once the secret is out, is refused in one world and
    decided in the other: the refusal a player read before secret commands were sealed."""

    other: list[list[int]] | None
    """The other world's faces (None: all ones)."""
    move: dict[str, Any]
    refused_in: int
    """0: the world of the scenario's faces; 1: the other."""
    words: str


TELLS = {
    "untold-aeons": Tell(None, SCENARIOS["untold-aeons"].player_moves[0], 0,
                         "Mara is Severely Injured and cannot act"),
    "aeonis": Tell([[6], [1]] * 4, SCENARIOS["aeonis"].player_moves[1], 1,
                   "there is no Retreat Check at 0,0 now"),
    "tactics": Tell(None, SCENARIOS["tactics"].player_moves[0], 1, "Vex is dead"),
}  # fmt: skip
"""Untold Aeons: the hidden shot Severely Injures Mara, or misses.  Aeonis: the hidden
battle round leaves both lines standing (a Retreat Check follows), or wins the battle.
TACTICS: the hidden Press wounds Vex, or kills her."""


async def _as_player(table: Table, cmd: dict[str, Any]) -> Any:
    return await table.client.post(
        f"/encounters/{table.eid}/commands", json={"command": cmd}, headers=bearer(table.player)
    )


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_a_players_next_command_is_answered_alike_whatever_the_secret_did(
    client: Client, name: str
) -> None:
    scenario = SCENARIOS[name]
    tell = TELLS.get(name)
    other = tell.other if tell and tell.other else [[1] * len(r) for r in scenario.secret[1]]
    worlds = [await play(client, name, scenario), await play(client, name, scenario, other)]
    for move in scenario.player_moves:
        answers = []
        for table in worlds:
            response = await _as_player(table, move)
            assert response.status_code == 200, response.text
            (held,) = response.json()["events"]
            assert held["type"] == "encounter.request_made", held
            assert held["data"]["held_because"] == HELD
            answers.append(without_ids(response.json(), table.eid))
        assert answers[0] == answers[1], move
    for move in scenario.gm_moves:  # a turn that ends: sealed, never published
        for table in worlds:
            response = await client.post(
                f"/encounters/{table.eid}/commands", json={"command": move}
            )
            if response.status_code == 200:  # else refused to the GM alone
                (sealed,) = response.json()["events"]
                assert sealed["type"] == "encounter.sealed", sealed
                assert sealed["data"]["waits_for"] == ["s1"]
    for path in ("", "/events?after_version=0", "/log?after_version=0", "/rolls?after_version=0"):
        seen = [without_ids(await table.get(path), table.eid) for table in worlds]
        assert seen[0] == seen[1], path
    for table in worlds:
        revealed = await client.post(
            f"/encounters/{table.eid}/rolls/reveal", json={"roll_ids": ["s1"]}
        )
        assert revealed.status_code == 200, revealed.text
    if tell is not None:  # what the held answer hid
        after = [await _as_player(table, tell.move) for table in worlds]
        refused, decided = after[tell.refused_in], after[1 - tell.refused_in]
        assert refused.status_code == 422, refused.text
        assert tell.words in refused.json()["detail"]
        assert decided.status_code == 200, decided.text
