"""Noninterference: two encounters whose secret commands differ only in what is secret
look the same, byte for byte, to every player and spectator until the GM reveals
(docs/secrecy.md).

Per registered ruleset (a ruleset without a scenario in tests/e2e/secrecy/scenarios.py
fails), hypothesis draws a run of the ruleset's commands: hidden GM commands, the same
command and others of the GM's in public, the bound player's own commands (with server
dice, asking for the representation, with too few dice of their own, or as a request to
the GM), GM notes and undos.  The run is played twice, on two services with databases of
their own (worlds.py), the hidden commands' manual faces, and where the scenario has
other forms of its secret command their hidden values, drawn independently per world.
Two runs are played every time: the issue's attack, and one that brings the table to the
player's turn first, so that every ruleset decides a real command of the player's (the
test fails for a ruleset where none was decided).

Compared, in order: every answer to the player's commands (status, problem or events,
``dice_needed``, representation); the live streams of the player and of the spectator,
held open from before the first command to after the last (observers.py); the bodies a
webhook in the players' view delivered; and everything both read at the end (state now
and at every version, events, log in JSON, text and Markdown, the ledger, stats, rounds,
verify and deep verify, whoami, a bounded live read, and the paths a player is refused:
an export of either kind, the tokens, the webhooks), each with every header but the
clock's (ETag, the chain head and its signature among them).  The one substitution: each
64-hex value (hashes, prev_hashes, commitments, the head's signature) is replaced by its
order of first appearance in its world (``Transcript.normalised``); the salts that make
them differ never reach a player before the reveal.  After the reveal both worlds verify
for the player, salts and all.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service.registry import RULESETS
from tests.e2e.noninterference.observers import HeldStream, webhook_bodies
from tests.e2e.noninterference.worlds import SameDraws, Transcript, World, two_worlds
from tests.e2e.secrecy.scenarios import SCENARIOS, Scenario
from tests.support.loop_thread import LoopThread

Step = tuple[str, Any]
PLAYER_STYLES = ("server dice", "representation", "too few dice", "request")
PLAYER_READS = ("/export", "/export?seeds=all", "/tokens", "/webhooks")
"""Paths a player's token is refused (403): the refusal is compared as any answer."""


@pytest.fixture(scope="module")
def runner() -> Iterator[LoopThread]:
    loop = LoopThread()
    yield loop
    loop.stop()


@pytest.fixture(scope="module")
def worlds(runner: LoopThread, postgres_url: str) -> Iterator[tuple[World, World]]:
    opened = two_worlds(postgres_url)
    yield runner.run(opened.__aenter__())
    runner.run(opened.__aexit__(None, None, None))


def _faces(dice: list[list[int]]) -> st.SearchStrategy[list[list[int]]]:
    """Faces no higher than the scenario's own (so within each die's size)."""
    return st.tuples(*(st.tuples(*(st.integers(1, f) for f in roll)) for roll in dice)).map(
        lambda rolls: [list(r) for r in rolls]
    )


def _secret_forms(scenario: Scenario) -> st.SearchStrategy[tuple[int, list[list[int]]]]:
    """One world's secret command: which of its forms (hidden values), and its faces."""
    forms = (scenario.secret, *scenario.secret_variants)
    return st.one_of(*(st.tuples(st.just(i), _faces(dice)) for i, (_, dice) in enumerate(forms)))


def _steps(scenario: Scenario) -> st.SearchStrategy[list[Step]]:
    moves_of_player = st.integers(0, len(scenario.player_moves) - 1)
    moves = [
        st.tuples(st.just("secret"), st.tuples(_secret_forms(scenario), _secret_forms(scenario))),
        st.tuples(st.just("gm"), st.integers(0, len(scenario.gm_moves))),
        st.tuples(st.just("player"), st.tuples(moves_of_player, st.sampled_from(PLAYER_STYLES))),
        st.sampled_from([("note", None), ("undo", None)]),
    ]
    if scenario.quiet_secret is not None:
        quiet = scenario.quiet_secret[1]
        moves.append(st.tuples(st.just("quiet"), st.tuples(_faces(quiet), _faces(quiet))))
    return st.lists(st.one_of(*moves), min_size=1, max_size=7)


async def _send(
    http: httpx.AsyncClient,
    eid: str,
    cmd: dict[str, Any],
    dice: Any,
    hidden: bool,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """A command; a GM's is sent again with more dice while it needs them, as a GM at
    the table would (that exchange is the GM's alone)."""
    body: dict[str, Any] = {"command": cmd, "hidden": hidden}
    if dice is not None:
        body["manual_dice"] = [list(r) for r in dice]
    for _ in range(6):
        response = await http.post(f"/encounters/{eid}/commands", json=body, headers=headers)
        needed = response.json().get("dice_needed") if response.status_code == 422 else None
        if headers is not None or needed is None:
            return response
        rolls = body["manual_dice"]
        while len(rolls) < needed["roll"]:
            rolls.append([])
        rolls[needed["roll"] - 1] += [1] * len(needed["dice"])
    return response


async def _players_move(
    http: httpx.AsyncClient, eid: str, cmd: dict[str, Any], style: str, player: dict[str, str]
) -> httpx.Response:
    if style == "representation":
        prefer = {"Prefer": "return=representation"}
        return await _send(http, eid, cmd, None, False, {**player, **prefer})
    if style == "too few dice":  # a 422 naming the dice needed, where the command rolls
        return await _send(http, eid, cmd, [], False, player)
    if style == "request":  # asked of the GM: it waits whatever the state, up to the cap
        body = {"command": cmd, "note": "May I?"}
        return await http.post(f"/encounters/{eid}/requests", json=body, headers=player)
    return await _send(http, eid, cmd, None, False, player)


async def _play(
    world: World, name: str, scenario: Scenario, steps: list[Step], side: int, example: int
) -> tuple[Transcript, str, dict[str, str], list[str]]:
    """What the player and the spectator saw, the encounter, the player's token, and the
    player's commands that the ruleset decided (not held, not refused)."""
    http = world.http
    decided: list[str] = []
    created = await http.post(
        "/encounters",
        json={"ruleset": name, "name": "Two worlds", "options": scenario.options,
              "allow_player_dice": True},
        headers={"Idempotency-Key": f"noninterference-{example}"},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    eid = created.json()["encounter_id"]
    for cmd, dice in scenario.setup:
        done = await _send(http, eid, cmd, dice, False)
        assert done.status_code == 200, done.text
    minted = await http.post(f"/encounters/{eid}/tokens", json={"combatants": scenario.player})
    watcher = await http.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    spectator = {"Authorization": f"Bearer {watcher.json()['token']}"}
    hook = await http.post(f"/encounters/{eid}/webhooks", json={"url": world.receiver.url})
    assert hook.status_code == 201, hook.text
    streams = [await HeldStream(http, eid, who).open() for who in (player, spectator)]
    seen = Transcript()
    secret_cmd, public_dice = scenario.secret
    forms = (scenario.secret, *scenario.secret_variants)
    for kind, argument in steps:
        if kind == "secret":
            form, faces = argument[side]
            await _send(http, eid, forms[form][0], faces, True)
        elif kind == "quiet":
            assert scenario.quiet_secret is not None
            await _send(http, eid, scenario.quiet_secret[0], argument[side], True)
        elif kind == "gm" and argument == 0:
            await _send(http, eid, secret_cmd, public_dice, False)
        elif kind == "gm":
            await _send(http, eid, scenario.gm_moves[argument - 1], None, False)
        elif kind == "player":
            index, style = argument
            move = scenario.player_moves[index]
            answer = await _players_move(http, eid, move, style, player)
            assert answer.status_code < 500, answer.text
            seen.add(f"player's {move['type']} ({style})", answer)
            events = answer.json().get("events") if answer.status_code == 200 else None
            if events and events[0]["type"] != "encounter.request_made":
                decided.append(f"{move['type']} ({style})")
        elif kind == "note":
            await http.post(f"/encounters/{eid}/notes", json={"text": "The lights flicker."})
        else:
            await http.post(f"/encounters/{eid}/undo", json={})
    last = 0
    for who, auth in (("player", player), ("spectator", spectator)):
        last = await _read_everything(http, eid, who, auth, seen)
    for who, stream in zip(("player", "spectator"), streams, strict=True):
        seen.add_bytes(f"{who}'s live stream, held open", await stream.close_after(last))
    seen.add_bytes("players' webhook", await webhook_bodies(world.receiver, eid, last))
    return seen, eid, player, decided


async def _read_everything(
    http: httpx.AsyncClient, eid: str, who: str, auth: dict[str, str], seen: Transcript
) -> int:
    """Every path the reader reads; the version of the last live message it may see."""

    async def read(path: str) -> httpx.Response:
        response = await http.get(f"/encounters/{eid}{path}", headers=auth)
        seen.add(f"{who} {path}", response)
        return response

    head = (await read("")).json()["version"]
    for version in range(1, head + 1):
        await read(f"?at={version}")
    await read("/events?after_version=0&limit=1000")
    log = (await read("/log?after_version=0&limit=1000")).json()["entries"]
    await read("/log.txt?after_version=0&limit=1000")
    await read("/log.md?after_version=0&limit=1000")
    await read("/rolls?after_version=0&limit=1000")
    await read("/stats")
    for number in sorted({e["round"] for e in log if e["round"]}):
        await read(f"/rounds/{number}")
    await read("/verify")
    await read("/verify?deep=true")
    await read("/whoami")
    for path in PLAYER_READS:
        await read(path)
    bounded = await read(f"/live?after_version=0&until_version={head}")
    ids = [int(line[4:]) for line in bounded.text.splitlines() if line.startswith("id: ")]
    return max(ids, default=0)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_two_secret_worlds_look_the_same_to_players(
    name: str, runner: LoopThread, worlds: tuple[World, World]
) -> None:
    assert name in SCENARIOS, f"ruleset {name!r} has no scenario to generate secrets from"
    scenario = SCENARIOS[name]
    assert scenario.player_moves, f"ruleset {name!r}: the player has no command of their own"
    examples = itertools.count()
    decided: set[str] = set()

    @settings(
        max_examples=4,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(steps=_steps(scenario))
    @example(steps=_the_issues_run(scenario))
    @example(steps=_the_players_turn(scenario))
    def both_worlds(steps: list[Step]) -> None:
        example = next(examples) + 1000 * sorted(RULESETS).index(name)
        played = []
        for side, world in enumerate(worlds):
            with SameDraws(example).patches():
                played.append(runner.run(_play(world, name, scenario, steps, side, example)))
        (a, eid, player_a, decided_a), (b, _, player_b, _) = played
        for left, right in zip(a.normalised(), b.normalised(), strict=True):
            assert left == right, left[0]
        decided.update(decided_a)  # the same in b: its answers are equal
        for world, player in ((worlds[0], player_a), (worlds[1], player_b)):
            runner.run(_reveal_and_verify(world.http, eid, player))

    both_worlds()
    assert decided, f"ruleset {name!r}: no command of the player's was decided in any run"


def _the_secret_in_two_worlds(scenario: Scenario) -> Step:
    """The secret with the scenario's faces in one world; in the other its last form (its
    other hidden values, where it has them) with all ones."""
    other = (scenario.secret, *scenario.secret_variants)[-1][1]
    ones = [[1] * len(roll) for roll in other]
    return ("secret", ((0, scenario.secret[1]), (len(scenario.secret_variants), ones)))


def _the_issues_run(scenario: Scenario) -> list[Step]:
    """The run the issue's attacks were made with, played every time: the player acts in
    public, then the secret (_the_secret_in_two_worlds), then the player's every command
    and the GM's next public ones."""
    player = [("player", (i, s)) for i in range(len(scenario.player_moves)) for s in PLAYER_STYLES]
    gm = [("gm", i) for i in range(len(scenario.gm_moves) + 1)]
    return [player[0], _the_secret_in_two_worlds(scenario), *player, *gm, player[0]]


def _the_players_turn(scenario: Scenario) -> list[Step]:
    """A run in which the player's command is decided, not only held or refused: the GM
    moves the table to the player's turn in public, the player acts in every style, then
    the secret, the player's every command again (held now) and the GM's next ones."""
    to_turn: list[Step] = [("gm", i) for i in scenario.players_turn]
    player = [("player", (0, s)) for s in PLAYER_STYLES]
    again = [("player", (i, s)) for i in range(len(scenario.player_moves)) for s in PLAYER_STYLES]
    gm = [("gm", i) for i in range(len(scenario.gm_moves) + 1)]
    return [*to_turn, *player, _the_secret_in_two_worlds(scenario), *again, *gm]


async def _reveal_and_verify(http: httpx.AsyncClient, eid: str, player: dict[str, str]) -> None:
    """The GM reveals every secret; the chain, commitments included, verifies for the
    player."""
    state = (await http.get(f"/encounters/{eid}")).json()["state"]
    own = [s for s in state["secret_rolls"] if "." not in s]
    if own:
        revealed = await http.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": own})
        assert revealed.status_code == 200, revealed.text
    verified = (await http.get(f"/encounters/{eid}/verify", headers=player)).json()
    assert verified["ok"] is True, verified
    events = (await http.get(f"/encounters/{eid}/events?limit=1000", headers=player)).json()
    for event in events["events"]:
        if event["type"] == "encounter.sealed":
            assert "salt" in event["data"], event  # opened: salt and contents shown
