"""The table console in a real browser: a GM runs a fight from the page while a
player follows it on a phone-sized screen and a spectator watches the overlay view.

Every step goes through the page as a user would (labels, buttons, the keyboard on the
version slider); the service is a real `aeon-ledger serve` process on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from service.registry import RULESETS
from tests.e2e.secrecy.scenarios import SCENARIOS
from tests.reliability.processes import Service, running_service

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def field(page: Page, name: str):  # type: ignore[no-untyped-def]
    """A command field by its label, as a screen reader names it."""
    return page.locator("#command-fields").get_by_label(
        re.compile(rf"^{re.escape(name)}( \(optional\))?$")
    )


async def send(
    page: Page,
    command: str,
    values: dict[str, str],
    *,
    dice: str = "",
    hidden: bool = False,
) -> None:
    """Fill the generated form of ``command`` (every other field emptied) and send it."""
    await page.get_by_label("Command", exact=True).select_option(command)
    boxes = page.locator("#command-fields input:not([type=checkbox]), #command-fields textarea")
    for i in range(await boxes.count()):
        await boxes.nth(i).fill("")
    for name, value in values.items():
        await field(page, name).fill(value)
    await page.get_by_label(re.compile("^Manual dice")).fill(dice)
    if hidden:
        await page.get_by_label("Roll in secret").check()
    await page.get_by_role("button", name="Send").click()


def log_line(page: Page, text: str):  # type: ignore[no-untyped-def]
    return page.locator("#log li", has_text=text)


async def open_context(browser: Browser, link: str, viewport: dict[str, int]) -> Page:
    """A new browser context (its own storage, as another person's browser) on ``link``;
    with a table in the link, once the page follows it live."""
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(link)
    if "#e=" in link:
        await expect(page.locator("#status")).to_contain_text("live")
    else:
        await expect(page.get_by_label("Ruleset")).to_contain_text("generic")
    assert not errors, errors
    return page


async def test_a_gm_runs_a_fight_that_a_player_and_a_spectator_follow(
    service: Service, browser: Browser, screenshots: Path
) -> None:
    gm = await open_context(browser, f"{service.url}/console/", DESKTOP)
    page_errors: list[str] = []
    gm.on("pageerror", lambda e: page_errors.append(str(e)))

    # Create an encounter from the list of registered rulesets.
    await gm.get_by_label("Ruleset").select_option("generic")
    await gm.get_by_label("Name", exact=True).fill("The bridge at dawn")
    await gm.get_by_role("button", name="Create").click()
    await expect(gm.locator("#encounter-title")).to_contain_text("The bridge at dawn")
    await expect(gm.locator("#status")).to_contain_text("Game master · live")

    # Add combatants through the form generated from GET /rulesets/generic.
    sword = '{"sword": {"notation": "1d20+5", "damage": "1d8+3"}}'
    await send(
        gm,
        "generic.add_combatant",
        {"id": "aria", "name": "Aria", "hp": "20", "stats": '{"ac": 14}', "attacks": sword},
    )
    await expect(log_line(gm, "Aria joins the encounter")).to_be_visible()
    await send(
        gm,
        "generic.add_combatant",
        {"id": "grak", "name": "Grak", "hp": "12", "stats": '{"ac": 12}'},
    )
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("12/12 hp")

    # A refusal shows the rule's reason.
    await send(gm, "generic.attack", {"attacker": "aria", "target": "nobody", "notation": "1d20"})
    await expect(gm.get_by_role("alert")).to_contain_text("Refused (422)")
    await expect(gm.get_by_role("alert")).to_contain_text("nobody")

    # The GM invites a player (bound to Aria) and a spectator; each opens their link.
    await gm.get_by_text("Invite players and spectators").click()
    await gm.get_by_label("Role").select_option("player")
    await gm.get_by_label(re.compile(r"^Combatants \(player")).fill("aria")
    await gm.get_by_role("button", name="Mint token").click()
    player_link = await gm.locator("#minted-link").get_attribute("href")
    await gm.get_by_label("Role").select_option("spectator")
    await gm.get_by_role("button", name="Mint token").click()
    await expect(gm.locator("#minted-link")).not_to_have_attribute("href", player_link or "")
    spectator_link = await gm.locator("#minted-link").get_attribute("href")
    assert player_link and spectator_link
    player = await open_context(browser, player_link, PHONE)
    await expect(player.locator("#status")).to_contain_text("Player of aria")
    # The spectator pastes the link into the join form.
    watcher = await open_context(browser, f"{service.url}/console/", DESKTOP)
    await watcher.get_by_label("Link").fill(spectator_link)
    await watcher.get_by_role("button", name="Join").click()
    await expect(watcher.locator("#status")).to_contain_text("Spectator · live")
    await expect(watcher.locator("#command-form")).to_be_hidden()
    await expect(player.locator("#undo")).to_be_hidden()

    # Initiative with server dice starts round 1.
    await send(gm, "generic.roll_initiative", {"combatants": '["aria", "grak"]'})
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1")

    # An attack with manual dice: the ledger shows the faces, modifiers, total, target.
    await send(
        gm,
        "generic.attack",
        {"attacker": "aria", "target": "grak", "notation": "1d20+5", "damage": "1d8+3"},
        dice="16; 5",
    )
    attack = log_line(gm, "Aria rolls 1d20+5 for attack on Grak")
    await expect(attack).to_contain_text("d20 [16] +5 notation = 21 vs 12: hit")
    manual_row = gm.locator("#ledger tr", has_text="attack on Grak")
    await expect(manual_row).to_contain_text("d20:16")
    await expect(manual_row).to_contain_text("manual dice")
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("4/12 hp")
    # ... and the player's phone has it too, without reloading.
    await expect(log_line(player, "Aria rolls 1d20+5 for attack on Grak")).to_be_visible()
    await expect(player.locator(".combatant", has_text="Grak")).to_contain_text("bloodied")

    # Undo strikes the attack through, and says who undid it; redo brings it back.
    await gm.get_by_role("button", name="Undo last command").click()
    await expect(attack.locator("del")).to_be_visible()
    await expect(attack).to_contain_text("undone by the GM")
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("12/12 hp")
    await expect(player.locator("#log li.undone", has_text="attack on Grak")).to_be_visible()
    await gm.get_by_role("button", name="Redo").click()
    await expect(attack.locator("del")).to_have_count(0)
    await expect(gm.locator(".combatant", has_text="Grak")).to_contain_text("4/12 hp")
    # The damage meter (GET /stats) counts the attack again: 5 + 3 dealt, one hit of one.
    aria = gm.locator('#stats tr[data-combatant="aria"]')
    await expect(aria.locator('[data-label="Dealt"]')).to_have_text("8")
    await expect(aria.locator('[data-label="Hits"]')).to_have_text("1/1")
    grak = gm.locator('#stats tr[data-combatant="grak"]')
    await expect(grak.locator('[data-label="Taken"]')).to_have_text("8")
    await expect(gm.locator('#stats tr[data-die="manual-d20"]')).to_contain_text("1")

    # Round 2, then a secret GM roll: the player sees only that the GM rolled.
    await send(gm, "generic.next_turn", {})
    await send(gm, "generic.next_turn", {})
    await expect(gm.locator("#turn-line")).to_contain_text("Round 2")
    await send(
        gm,
        "generic.attack",
        {"attacker": "grak", "target": "aria", "notation": "1d20+3", "damage": "1d6"},
        hidden=True,
    )
    await expect(log_line(gm, "Grak rolls 1d20+3 for attack on Aria")).to_be_visible()
    await expect(
        log_line(player, "The GM rolls in secret for Grak's attack on Aria")
    ).to_be_visible()
    await expect(player.locator("#ledger")).to_contain_text("GM rolls secretly for grak")
    await expect(watcher.locator("#ledger")).to_contain_text("GM rolls secretly for grak")
    assert "1d20+3" not in await player.locator("#ledger").inner_text()
    player_shot = await player.screenshot(path=screenshots / "console-player.png", full_page=True)

    # Back to round 1 with the slider, from the keyboard.
    slider = gm.get_by_label("Version shown")
    await slider.focus()
    for _ in range(40):
        if "round 1" in await gm.locator("#version-label").inner_text():
            break
        await gm.keyboard.press("ArrowLeft")
    await expect(gm.locator("#version-label")).to_contain_text("round 1")
    await expect(gm.locator("#viewing")).to_contain_text("Looking back")
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 ·")
    await expect(log_line(gm, "Round 2 begins")).to_have_count(0)
    await gm.get_by_role("button", name="Back to live").click()
    await expect(gm.locator("#viewing")).to_contain_text("Live")
    await expect(log_line(gm, "Round 2 begins")).to_be_visible()
    # The round stepper does the same in one press.
    await gm.get_by_role("button", name="Previous round").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 ·")
    await gm.get_by_role("button", name="Next round").click()
    await expect(gm.locator("#viewing")).to_contain_text("Live")

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
    assert await server_rows.count() >= 3  # two initiative rolls and the secret attack
    await expect(gm.locator("#chain")).to_contain_text("Hash chain intact")
    await expect(player.locator("#ledger")).not_to_contain_text("GM rolls secretly")
    await expect(log_line(player, "Grak rolls 1d20+3 for attack on Aria")).to_be_visible()
    await gm.get_by_text("Invite players and spectators").click()  # fold the links away
    gm_shot = await gm.screenshot(path=screenshots / "console-gm.png", full_page=True)
    assert gm_shot[:8] == player_shot[:8] == b"\x89PNG\r\n\x1a\n"

    # The player acts from the phone: the form starts on an attack by Aria, from the sheet.
    await expect(player.get_by_label("Command", exact=True)).to_have_value("generic.attack")
    await expect(field(player, "attacker")).to_have_value("aria")
    await field(player, "target").fill("grak")
    await field(player, "using").fill("sword")
    await player.get_by_role("button", name="Send").click()
    await expect(log_line(gm, "Aria rolls 1d20+5 for attack on Grak")).to_have_count(2)
    # What is the GM's to do is refused with the reason.
    await send(player, "generic.damage", {"target": "grak", "amount": "3"})
    await expect(player.get_by_role("alert")).to_contain_text("GM's to issue")

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
    ruleset: str, service: Service, browser: Browser
) -> None:
    """The tracker reads each ruleset's state by its shape: after the secrecy suite's
    scenario (a table, then a hidden GM roll), the GM's page and the player's open without
    a script error, name every combatant, and the player's ledger hides the secret roll."""
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
        await field(player, "target").fill("grak")
        await field(player, "notation").fill("1d20+2")
        await field(player, "damage").fill("1d4")
        await player.get_by_label("Note for the GM").fill(note)
        await player.get_by_role("button", name="Ask the GM").click()

    await ask("I throw the lantern")
    await expect(gm.locator("[data-request=q1]")).to_contain_text("I throw the lantern")
    await gm.get_by_role("button", name="Allow q1").click()
    await expect(gm.get_by_role("alert")).to_be_empty()
    await expect(gm.locator("[data-request=q1]")).to_have_count(0)
    await expect(log_line(player, "Aria rolls 1d20+2 for attack on Grak")).to_be_visible()

    await ask("I kick the brazier")
    await expect(gm.locator("[data-request=q2]")).to_contain_text("I kick the brazier")
    await gm.get_by_label("Reason to refuse q2").fill("the brazier is bolted down")
    await gm.get_by_role("button", name="Refuse q2").click()
    await expect(player.locator("[data-request=q2]")).to_have_count(0)
    await expect(player.locator("#log")).to_contain_text("the brazier is bolted down")
