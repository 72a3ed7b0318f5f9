"""The table console in a real browser: a GM runs a fight from the page while a
player follows it on a phone-sized screen and a spectator watches the overlay view.

Every step goes through the page as a user would (labels, buttons, the keyboard on the
version slider); the service is a real `aeon-ledger serve` process on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from service.registry import RULESETS
from tests.browser.pages import (
    DESKTOP,
    PHONE,
    choose,
    entry,
    field,
    fill,
    log_line,
    open_context,
    send,
)
from tests.e2e.secrecy.scenarios import SCENARIOS
from tests.support.processes import Service, running_service


async def add_from_sheet(gm: Page, ident: str, name: str, hp: str, ac: str, attack: str) -> None:
    """A combatant from a sheet typed into the form: stats and an attack as entries."""
    await choose(gm, "Add combatant")
    await fill(gm, {"id": ident, "name": name, "hp": hp})
    await entry(gm, "stats", "ac", ac)
    weapon, notation, damage = attack.split()
    await entry(gm, "attacks", weapon, {"notation": notation, "damage": damage})
    await gm.get_by_role("button", name="Send").click()
    await expect(log_line(gm, f"{name} joins the encounter")).to_be_visible()


async def test_a_gm_runs_a_fight_that_a_player_and_a_spectator_follow(
    service: Service, browser: Browser, screenshots: Path
) -> None:
    """The generic fight of the console, played from the page alone without typing JSON:
    three combatants from sheets, initiative, three turns each with an attack (from the
    tracker, from the sheet, in secret), damage, a condition, a secret roll and its reveal,
    undo from the history, a fork."""
    gm = await open_context(browser, f"{service.url}/console/", DESKTOP)
    page_errors: list[str] = []
    gm.on("pageerror", lambda e: page_errors.append(str(e)))

    # Create an encounter from the list of registered rulesets; its options show with
    # their defaults, and an example never goes out as a value.
    await gm.get_by_label("Ruleset").select_option("generic")
    await expect(gm.get_by_label("initiative notation")).to_have_attribute(
        "placeholder", "default 1d20"
    )
    await gm.get_by_label("Name", exact=True).fill("The bridge at dawn")
    await gm.get_by_role("button", name="Create").click()
    await expect(gm.locator("#encounter-title")).to_contain_text("The bridge at dawn")
    await expect(gm.locator("#status")).to_contain_text("Game master · live")
    await expect(gm.get_by_text("Keep this link")).to_be_visible()
    assert await gm.get_by_label("Your GM link").input_value() == gm.url

    await add_from_sheet(gm, "aria", "Aria", "20", "14", "sword 1d20+5 1d8+3")
    await add_from_sheet(gm, "grak", "Grak", "12", "12", "club 1d20+3 1d6")
    await add_from_sheet(gm, "borin", "Borin", "16", "15", "axe 1d20+4 1d8+2")
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("12/12 hp")

    # A refusal shows the rule's reason (a name typed through "other…").
    await choose(gm, "Attack")
    await fill(gm, {"attacker": "aria", "target": "\u0000other", "notation": "1d20"})
    await gm.get_by_label("target (other)").fill("nobody")
    await gm.get_by_role("button", name="Send").click()
    await expect(gm.get_by_role("alert")).to_contain_text("Refused (422)")
    await expect(gm.get_by_role("alert")).to_contain_text("nobody")

    # The GM invites a player (bound to Aria, picked from the list) and a spectator.
    await gm.get_by_text("Invite players and spectators").click()
    await gm.get_by_label("Role").select_option("player")
    await gm.locator("#mint-combatants").get_by_label("Aria (aria)").check()
    await gm.get_by_role("button", name="Mint token").click()
    player_link = await gm.locator(".minted-link").first.get_attribute("href")
    assert await gm.locator(".minted-link").first.get_attribute("target") == "_blank"
    await gm.get_by_label("Role").select_option("spectator")
    await gm.get_by_role("button", name="Mint token").click()
    await expect(gm.locator(".minted-link")).to_have_count(2)
    spectator_link = await gm.locator(".minted-link").first.get_attribute("href")
    assert player_link and spectator_link and player_link != spectator_link
    await expect(gm.locator("#token-list li")).to_have_count(3)  # with the GM's own
    player = await open_context(browser, player_link, PHONE)
    await expect(player.locator("#status")).to_contain_text("Player of aria")
    # The spectator pastes the link into the join form.
    watcher = await open_context(browser, f"{service.url}/console/", DESKTOP)
    await watcher.get_by_label("Link", exact=True).fill(spectator_link)
    await watcher.get_by_role("button", name="Join").click()
    await expect(watcher.locator("#status")).to_contain_text("Spectator · live")
    await expect(watcher.locator("#command-form")).to_be_hidden()
    await expect(player.locator("#undo")).to_be_hidden()
    # A player's picker offers only what acts for them: no GM command in it.
    player_commands = (
        await player.get_by_label("Command", exact=True).locator("option").all_inner_texts()
    )
    assert "Damage" not in player_commands and "Attack" in player_commands

    # Initiative for all three, with manual dice (every box empty: nobody is left out).
    await choose(gm, "Roll initiative")
    for name in ("Aria (aria)", "Grak (grak)", "Borin (borin)"):
        await gm.locator("#command-fields").get_by_label(name).check()
    await gm.get_by_label(re.compile("^Manual dice")).fill("18; 9; 12")
    await gm.get_by_role("button", name="Send").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 · Aria's turn · next Borin")
    await expect(gm.locator(".combatant.active")).to_contain_text("Aria")

    # Turn 1: Aria attacks Grak from the tracker (pick Grak, "Attack: Grak (target)").
    await (
        gm.locator(".combatant", has_text="Grak")
        .get_by_role("button", name="Grak", exact=True)
        .click()
    )
    await gm.get_by_role("button", name="Attack: Grak (target)").click()
    await expect(field(gm, "target")).to_have_value("grak")
    await fill(gm, {"attacker": "aria", "using": "sword"})
    await gm.get_by_label(re.compile("^Manual dice")).fill("16; 5")
    await gm.get_by_role("button", name="Send").click()
    attack = log_line(gm, "Aria rolls 1d20+5 for attack on Grak")
    await expect(attack).to_contain_text("d20 [16] +5")
    await expect(attack).to_contain_text("= 21 vs 12: hit")
    manual_row = gm.locator("#ledger tr", has_text="attack on Grak")
    await expect(manual_row).to_contain_text("d20:16")
    await expect(manual_row).to_contain_text("manual dice")
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("4/12 hp")
    # ... and the player's phone has it too, without reloading.
    await expect(log_line(player, "Aria rolls 1d20+5 for attack on Grak")).to_be_visible()
    await expect(player.locator(".combatant", has_text="Grak")).to_contain_text("bloodied")

    # Undo strikes the attack through and says who undid it; pressed twice, it takes back
    # the command before (it never redoes); Redo brings both back.
    await gm.get_by_role("button", name="Undo last command").click()
    await expect(attack.locator("del")).to_be_visible()
    await expect(attack).to_contain_text("undone by the GM")
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("12/12 hp")
    await expect(player.locator("#log li.undone", has_text="attack on Grak")).to_be_visible()
    await gm.get_by_role("button", name="Redo").click()
    await expect(attack.locator("del")).to_have_count(0)
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("4/12 hp")
    await gm.get_by_text("Statistics: damage meter").click()
    aria = gm.locator('#stats tr[data-combatant="aria"]')
    await expect(aria.locator('[data-label="Dealt"]')).to_have_text("8")
    await expect(aria.locator('[data-label="Hits"]')).to_have_text("1/1")

    # The player ends Aria's turn from the phone; Borin's turn: an attack from his sheet
    # (a miss), damage and a condition.
    await player.get_by_role("button", name="End my turn").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Borin's turn")
    await expect(gm.get_by_role("group", name="Act on Grak")).to_be_visible()  # still picked
    await gm.get_by_role("button", name="Attack: Grak (target)").click()
    await fill(gm, {"attacker": "borin", "using": "axe"})
    await gm.get_by_label(re.compile("^Manual dice")).fill("3")
    await gm.get_by_role("button", name="Send").click()
    await expect(log_line(gm, "Borin rolls 1d20+4 for attack on Grak")).to_contain_text("miss")
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("4/12 hp")
    await gm.get_by_role("button", name="Damage: Grak (target)").click()
    await fill(gm, {"amount": "2", "source": "falling rocks"})
    await gm.get_by_role("button", name="Send").click()
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("2/12 hp")
    await gm.get_by_role("button", name="Add condition: Grak (target)").click()
    await fill(gm, {"condition": "prone", "duration rounds": "2"})
    await gm.get_by_role("button", name="Send").click()
    await expect(
        gm.locator(".combatant", has_text="Grak").locator(".badge.condition")
    ).to_contain_text("prone")

    # Grak's turn: a secret GM roll; the player sees only that the GM rolled.
    await gm.get_by_role("button", name="Next turn").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Grak's turn")
    await send(gm, "Attack", {"attacker": "grak", "target": "aria", "using": "club"}, hidden=True)
    await expect(log_line(gm, "Grak rolls 1d20+3 for attack on Aria")).to_be_visible()
    await expect(
        log_line(player, "The GM rolls in secret for Grak's attack on Aria")
    ).to_be_visible()
    # One marker record per sealed command, naming nobody: who rolled is in its public line.
    await expect(player.locator("#ledger")).to_contain_text("GM rolls secretly")
    await expect(watcher.locator("#ledger")).to_contain_text("GM rolls secretly")
    assert "1d20+3" not in await player.locator("#ledger").inner_text()
    player_shot = await player.screenshot(path=screenshots / "console-player.png", full_page=True)
    # Revealed before play goes on: while it is hidden the next turn would be sealed too.
    await gm.get_by_role("button", name="Reveal s1", exact=True).click()
    await expect(log_line(player, "Grak rolls 1d20+3 for attack on Aria")).to_be_visible()
    await gm.get_by_role("button", name="Next turn").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Round 2")

    # Back to round 1 with the slider, from the keyboard: commands wait while looking back.
    slider = gm.get_by_label("Version shown")
    await slider.focus()
    for _ in range(60):
        if "round 1" in await gm.locator("#version-label").inner_text():
            break
        await gm.keyboard.press("ArrowLeft")
    await expect(gm.locator("#version-label")).to_contain_text("round 1")
    await expect(gm.locator("#viewing")).to_contain_text("Looking back")
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 ·")
    await expect(log_line(gm, "Round 2 begins")).to_have_count(0)
    await expect(gm.get_by_role("button", name="Send")).to_be_disabled()
    await expect(gm.locator("#looking-back")).to_be_visible()
    await gm.get_by_role("button", name="Back to live").first.click()
    await expect(gm.locator("#viewing")).to_contain_text("Live")
    await expect(log_line(gm, "Round 2 begins")).to_be_visible()
    await expect(gm.get_by_role("button", name="Send")).to_be_enabled()
    # The round stepper does the same in one press.
    await gm.get_by_role("button", name="Previous round").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 ·")
    await gm.get_by_role("button", name="Next round").click()
    await expect(gm.locator("#viewing")).to_contain_text("Live")

    # Undo from the history: back to before the condition (it and later commands go).
    await gm.get_by_text("Undo history").click()
    history = gm.locator("#undo-history li", has_text="prone")
    await history.get_by_role("button").click()
    await expect(
        gm.locator(".combatant", has_text="Grak").locator(".badge.condition")
    ).to_have_count(0)
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 · Borin's turn")
    await gm.get_by_role("button", name="Redo").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Round 2")

    # The GM ends the dice epoch and reveals the secret roll: every server roll is
    # recomputed in the browser and matches; the hash chain is intact.
    await gm.get_by_role("button", name="Reveal dice seed (end epoch)").click()
    await expect(log_line(gm, "Dice epoch 1 ends: seed revealed")).to_be_visible()
    reveal = gm.locator("#ledger button")
    while (left := await reveal.count()) > 0:
        await reveal.first.click()
        await expect(reveal).to_have_count(left - 1)
    server_rows = gm.locator("#ledger tbody tr", has_text="server")
    await expect(server_rows.locator('[data-verdict="verified"]')).to_have_count(
        await server_rows.count()
    )
    assert await server_rows.count() >= 1  # the secret attack
    await expect(gm.locator("#chain")).to_contain_text("Hash chain intact")
    await expect(player.locator("#ledger")).not_to_contain_text("GM rolls secretly")
    await expect(log_line(player, "Grak rolls 1d20+3 for attack on Aria")).to_be_visible()
    await gm.get_by_text("Invite players and spectators").click()  # fold the links away
    gm_shot = await gm.screenshot(path=screenshots / "console-gm.png", full_page=True)
    assert gm_shot[:8] == player_shot[:8] == b"\x89PNG\r\n\x1a\n"

    # The player acts from the phone: the form starts on an attack by Aria, from the sheet.
    await expect(player.get_by_label("Command", exact=True)).to_have_value("generic.attack")
    await expect(field(player, "attacker")).to_have_value("aria")
    await fill(player, {"target": "grak", "using": "sword"})
    await player.get_by_role("button", name="Send").click()
    await expect(log_line(gm, "Aria rolls 1d20+5 for attack on Grak")).to_have_count(2)

    # A what-if branch from round 1: the GM's page opens the fork, still in round 1.
    await gm.get_by_role("button", name="Previous round").click()
    await expect(gm.locator("#viewing")).to_contain_text("Looking back")
    await gm.get_by_role("button", name="Fork from the version shown").click()
    await expect(gm.locator("#encounter-title")).to_contain_text("(fork at version")
    await expect(gm.locator("#viewing")).to_contain_text("Live")
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 ·")
    assert not page_errors, page_errors


async def test_the_browser_check_catches_a_forged_face(service: Service, browser: Browser) -> None:
    """The verify badge is not a formality: the page's own algorithm, given a roll whose
    face was changed after the fact, says it does not match."""
    async with httpx.AsyncClient(base_url=service.url) as http:
        created = (
            await http.post("/encounters", json={"ruleset": "generic", "name": "Forgery"})
        ).json()
        eid, token = created["encounter_id"], created["gm_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        add = {"type": "generic.add_combatant", "id": "aria", "name": "Aria", "hp": 5}
        for body in (
            {"command": add},
            {"command": {"type": "generic.roll_initiative", "combatants": ["aria"]}},
        ):
            assert (await http.post(f"/encounters/{eid}/commands", json=body)).is_success
        assert (await http.post(f"/encounters/{eid}/dice/reveal")).is_success
    page = await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP)
    await expect(page.locator('#ledger [data-verdict="verified"]')).to_have_count(1)
    verdicts = await page.evaluate(
        """async ([token, eid]) => {
            const f = await import("/console/js/fairness.js");
            const auth = {headers: {Authorization: `Bearer ${token}`}};
            const events = (await (await fetch(`/encounters/${eid}/events`, auth)).json()).events;
            const roll = (await (await fetch(`/encounters/${eid}/rolls`, auth)).json()).rolls[0];
            const seeds = f.epochs(events);
            const honest = await f.verifyRoll(roll, seeds);
            roll.dice[0].face = roll.dice[0].face % roll.dice[0].sides + 1;
            return [honest, await f.verifyRoll(roll, seeds)];
        }""",
        [token, eid],
    )
    assert verdicts == ["verified", "mismatch"]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
async def test_every_ruleset_opens_for_the_gm_and_its_player(
    ruleset: str, service: Service, browser: Browser, screenshots: Path
) -> None:
    """The tracker reads each ruleset's state by its shape: after the secrecy suite's
    scenario (a table, then a hidden GM roll), the GM's page and the player's open without
    a script error, name every combatant, show the ruleset's own view, offer the player
    exactly the commands the service says a player may send, and the player's ledger
    hides the secret roll."""
    scenario = SCENARIOS[ruleset]
    async with httpx.AsyncClient(base_url=service.url) as http:
        created = await http.post(
            "/encounters",
            json={"ruleset": ruleset, "name": f"Console {ruleset}", "options": scenario.options},
        )
        eid, token = created.json()["encounter_id"], created.json()["gm_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        for cmd, dice in scenario.setup:
            body = {"command": cmd, "manual_dice": dice}
            answer = await http.post(f"/encounters/{eid}/commands", json=body)
            assert answer.is_success, answer.text
        cmd, dice = scenario.secret
        body = {"command": cmd, "manual_dice": dice, "hidden": True}
        assert (await http.post(f"/encounters/{eid}/commands", json=body)).is_success
        minted = await http.post(f"/encounters/{eid}/tokens", json={"combatants": scenario.player})
        player_token = minted.json()["token"]
        game = (await http.get(f"/encounters/{eid}")).json()["state"]["game"]
        info = (await http.get(f"/rulesets/{ruleset}")).json()
    gm = await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP)
    player = await open_context(browser, f"{service.url}/console/#e={eid}&t={player_token}", PHONE)
    roster = next(game[k] for k in ("combatants", "units", "characters") if k in game)
    names = [c.get("name") or key for key, c in roster.items()]
    assert names
    for page in (gm, player):
        for name in names:
            await expect(page.locator("#tracker")).to_contain_text(name)
    await expect(player.locator("#ledger")).to_contain_text("GM rolls secretly")
    await expect(gm.locator("#ledger")).not_to_contain_text("GM rolls secretly")
    if ruleset != "generic":  # generic holds nothing beyond its tracker rows
        await expect(gm.locator(".view-part").first).to_be_visible()
    gm_commands = await gm.locator("#command-type option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    player_commands = await player.locator("#command-type option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    assert sorted(player_commands) == sorted(info["player_commands"])
    assert 0 < len(player_commands) < len(gm_commands)
    await gm.locator("#tracker").screenshot(path=screenshots / f"console-{ruleset}.png")


async def test_the_page_resumes_the_stream_after_the_service_restarts(
    database_url: str, browser: Browser
) -> None:
    """The page follows service A; A stops, a command is committed through service B on
    the same database, A starts again.  The page only redraws when an event arrives, so
    the new combatant shows up only if the reconnected stream resumed from the last
    event the page had (Last-Event-ID) and delivered the one it missed, and only that."""
    with running_service(database_url) as a, running_service(database_url) as b:
        async with httpx.AsyncClient(base_url=a.url) as http:
            created = (
                await http.post("/encounters", json={"ruleset": "generic", "name": "Restart"})
            ).json()
        eid, token = created["encounter_id"], created["gm_token"]
        page = await open_context(browser, f"{a.url}/console/#e={eid}&t={token}", DESKTOP)
        await asyncio.to_thread(a.stop)
        await expect(page.locator("#status")).to_contain_text("reconnecting")
        async with httpx.AsyncClient(base_url=b.url) as http:
            add = {"type": "generic.add_combatant", "id": "grak", "name": "Grak", "hp": 7}
            answer = await http.post(
                f"/encounters/{eid}/commands",
                json={"command": add},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.is_success, answer.text
            version = answer.json()["events"][-1]["stream_version"]
        await asyncio.to_thread(a.start)
        await expect(page.locator("#tracker")).to_contain_text("Grak", timeout=30_000)
        body = page.locator("body")
        await expect(body).to_have_attribute("data-last-event", str(version))
        # Only what was missed: no event the page already had came again.
        await expect(body).to_have_attribute("data-received", str(version - created["version"]))
        await expect(page.locator("#status")).to_contain_text("live")


async def test_a_player_asks_and_the_gm_allows_or_refuses(
    service: Service, browser: Browser
) -> None:
    """Off the sheet, a player asks from the console; the GM sees the request arrive live
    in the tracker and allows one, refuses another with a reason."""
    async with httpx.AsyncClient(base_url=service.url) as http:
        created = (
            await http.post("/encounters", json={"ruleset": "generic", "name": "Requests"})
        ).json()
        eid, token = created["encounter_id"], created["gm_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        for ident, hp in (("aria", 20), ("grak", 30)):
            add = {"type": "generic.add_combatant", "id": ident, "name": ident.title(),
                   "hp": hp, "stats": {"ac": 12}}  # fmt: skip
            answer = await http.post(f"/encounters/{eid}/commands", json={"command": add})
            assert answer.is_success, answer.text
        minted = await http.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    gm = await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP)
    link = f"{service.url}/console/#e={eid}&t={minted.json()['token']}"
    player = await open_context(browser, link, PHONE)
    await expect(gm.get_by_role("button", name="Ask the GM")).to_be_hidden()

    async def ask(note: str) -> None:
        await fill(player, {"target": "grak", "notation": "1d20+2", "damage": "1d4"})
        await player.get_by_label("Note for the GM").fill(note)
        await player.get_by_role("button", name="Ask the GM").click()

    await ask("I throw the lantern")
    card = gm.locator("[data-request=q1]")
    await expect(card).to_contain_text("I throw the lantern")
    for shown in ("notation 1d20+2", "damage 1d4", "encounter's dice"):
        await expect(card).to_contain_text(shown)  # all that Allow will apply
    await gm.get_by_role("button", name="Allow q1").click()
    await expect(gm.get_by_role("alert")).to_be_empty()
    await expect(gm.locator("[data-request=q1]")).to_have_count(0)
    await expect(log_line(player, "Aria rolls 1d20+2 for attack on Grak")).to_be_visible()

    await ask("I kick the brazier")
    await expect(gm.locator("[data-request=q2]")).to_contain_text("I kick the brazier")
    await gm.get_by_text("Amend q2").click()
    amended = {"command": {"type": "generic.attack", "attacker": "aria", "target": "grak",
               "notation": "1d20+2", "damage": "1d2"}, "manual_dice": None}  # fmt: skip
    await gm.get_by_label("Amended request q2").fill(json.dumps(amended))
    await gm.get_by_role("button", name="Save amendment to q2").click()
    await expect(gm.locator("[data-request=q2]")).to_contain_text("damage 1d2")
    await expect(player.locator("#log")).to_contain_text("The GM amends request q2")
    await gm.get_by_label("Reason to refuse q2").fill("the brazier is bolted down")
    await gm.get_by_role("button", name="Refuse q2").click()
    await expect(player.locator("[data-request=q2]")).to_have_count(0)
    await expect(player.locator("#log")).to_contain_text("the brazier is bolted down")

    # Two more at once: the GM refuses every waiting request with one reason.
    await ask("I climb the chandelier")
    await ask("I climb it again")
    await expect(gm.locator("[data-request=q4]")).to_be_visible()
    await gm.get_by_label("Reason to refuse every request").fill("one stunt per round")
    await gm.get_by_role("button", name="Refuse every waiting request").click()
    await expect(gm.locator("[data-request]")).to_have_count(0)
    await expect(player.locator("[data-request]")).to_have_count(0)
    await expect(player.locator("#log")).to_contain_text(
        "The GM refuses request q4: one stunt per round"
    )


async def test_tactics_is_created_from_the_console_with_its_required_option(
    service: Service, browser: Browser
) -> None:
    """TACTICS needs press_penalty_step (TAC-A5, no default): the create form lists the
    ruleset's options with their defaults and reasons, opens itself on the required one,
    and sends only what the GM set; then a zone and a combatant are added from the form."""
    gm = await open_context(browser, f"{service.url}/console/", DESKTOP)
    await gm.get_by_label("Ruleset").select_option("tactics")
    penalty = gm.get_by_label("press penalty step")
    await expect(penalty).to_be_visible()
    await expect(gm.locator("#opt-press_penalty_step-hint")).to_contain_text("TAC-A5")
    await expect(gm.get_by_label("shield mode")).to_have_attribute("placeholder", "default gate")
    await penalty.fill("2")
    await gm.get_by_label("Name", exact=True).fill("Boarding action")
    await gm.get_by_role("button", name="Create").click()
    await expect(gm.locator("#encounter-title")).to_contain_text("Boarding action")
    await expect(gm.locator("#status")).to_contain_text("live")
    await send(gm, "Add zone", {"id": "deck"})
    await expect(gm.locator("#tracker")).to_contain_text("deck")
    await choose(gm, "Add combatant")
    await fill(gm, {"id": "rex", "name": "Rex", "zone": "deck"})
    await gm.get_by_role("button", name="Send").click()
    await expect(gm.locator(".combatant", has_text="Rex")).to_contain_text("zone deck")
    eid = gm.url.split("#e=")[1].split("&")[0]
    token = gm.url.split("&t=")[1]
    async with httpx.AsyncClient(base_url=service.url) as http:
        state = (
            await http.get(f"/encounters/{eid}", headers={"Authorization": f"Bearer {token}"})
        ).json()["state"]
    assert state["game"]["options"]["press_penalty_step"] == 2
    assert state["game"]["options"]["shield_mode"] == "gate"
