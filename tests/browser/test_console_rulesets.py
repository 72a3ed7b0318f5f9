"""Two rounds of each rule system besides generic, played from the console alone.

The GM creates the table from the start page, builds it with the forms (sheets as rows
of named entries, ids picked from the encounter) and mints a player's link from the
invite panel; the player plays on a phone-sized screen from their own buttons (sheet
entries, "End my turn") and the picker the service allows them.  Nobody types JSON.
Where a roll decides the path of the fight the dice are entered by hand, so the two
rounds always take the same course.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping

from playwright.async_api import Browser, Page, expect

from tests.browser.pages import (
    DESKTOP,
    PHONE,
    Value,
    choose,
    entry,
    fill,
    item,
    log_line,
    open_context,
    send,
)
from tests.support.processes import Service


async def create(
    browser: Browser,
    service: Service,
    ruleset: str,
    name: str,
    options: dict[str, str] | None = None,
    *,
    player_dice: bool = False,
) -> Page:
    """The GM's page on a new encounter made with the start page's create form."""
    gm = await open_context(browser, f"{service.url}/console/", DESKTOP)
    await gm.get_by_label("Ruleset").select_option(ruleset)
    for label, value in (options or {}).items():
        box = gm.get_by_label(label, exact=True)
        if not await box.is_visible():
            await gm.locator("#create-options summary").click()
        await box.fill(value)
    await gm.get_by_label("Name", exact=True).fill(name)
    if player_dice:
        await gm.get_by_label("Players may enter their own dice").check()
    await gm.get_by_role("button", name="Create").click()
    await expect(gm.locator("#status")).to_contain_text("Game master · live")
    return gm


async def landed(page: Page, action: Callable[[], Awaitable[None]]) -> None:
    """Do ``action`` (a click that sends a command), fail with the service's words if it
    is refused, and wait until the page has the command's events."""
    async with page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/commands")
    ) as sent:
        await action()
    answer = await sent.value
    assert answer.ok, await answer.text()
    version = (await answer.json())["events"][-1]["stream_version"]
    await page.wait_for_function(
        "v => Number(document.body.dataset.lastEvent || 0) >= v", arg=version
    )


async def act(page: Page, title: str, values: Mapping[str, Value], dice: str = "") -> None:
    """Send one command from its form and wait for it to land."""
    await landed(page, lambda: send(page, title, values, dice=dice))


async def act_current(page: Page, dice: str = "") -> None:
    """Send the form as it is filled and wait for it to land."""
    await page.get_by_label(re.compile("^Manual dice")).fill(dice)
    await landed(page, page.get_by_role("button", name="Send").click)


async def press(
    page: Page, button: str, values: Mapping[str, Value] | None = None, dice: str = ""
) -> None:
    """Press a button that sends at once (a turn button) or opens a form filled in (a
    sheet entry, a combatant's action), fill what is left and send."""
    pressed = page.get_by_role("button", name=button, exact=True)
    if values is None:
        await landed(page, pressed.click)
        return
    await pressed.click()
    await fill(page, values)
    await act_current(page, dice)


async def sheet(
    page: Page, title: str, values: Mapping[str, Value], **entries: Mapping[str, Value]
) -> None:
    """Add someone from a sheet: the fields, then each named entry (``weapons={"rifle":
    {...}}``) as a row of its map."""
    await choose(page, title)
    await fill(page, values)
    for part, named in entries.items():
        for key, sub in named.items():
            assert isinstance(sub, (str, Mapping)), sub
            await entry(page, part, key, sub)
    await act_current(page)


async def pick(page: Page, name: str) -> None:
    """Pick a combatant in the tracker: its actions show under "Act on"."""
    button = page.locator(".combatant", has_text=name).get_by_role("button", name=name, exact=True)
    if await button.get_attribute("aria-pressed") != "true":
        await button.click()
    await expect(page.get_by_role("group", name=f"Act on {name}")).to_be_visible()


async def invite(gm: Page, browser: Browser, label: str) -> Page:
    """Mint a player's link from the invite panel and open it on a phone."""
    await gm.get_by_text("Invite players and spectators").click()
    await gm.get_by_label("Role").select_option("player")
    await gm.locator("#mint-combatants").get_by_label(label, exact=True).check()
    await gm.get_by_role("button", name="Mint token").click()
    link = await gm.locator(".minted-link").first.get_attribute("href")
    await gm.get_by_text("Invite players and spectators").click()
    assert link
    player = await open_context(browser, link, PHONE)
    await expect(player.locator("#status")).to_contain_text("Player of")
    return player


async def test_two_rounds_of_tactics(service: Service, browser: Browser) -> None:
    """Rex (a player) presses the Brute with his rifle each round; on the Brute's turn
    the GM resolves the Press (a dodge on 18) and ends the turn."""
    gm = await create(browser, service, "tactics", "Dockside", {"press penalty step": "2"})
    await act(gm, "Add zone", {"id": "plaza"})
    await act(gm, "Add zone", {"id": "yard", "links": ["plaza"]})
    rifle = {"damage": "12", "precision": "14", "range": "far"}
    dodge = {"stat": "agility", "amount": "2", "duration": "turn"}
    rex = {"id": "rex", "name": "Rex", "side": "squad", "agility": "2", "zone": "plaza"}
    await sheet(gm, "Add combatant", rex, weapons={"rifle": rifle}, maneuvers={"dodge": dodge})
    maul = {"damage": "16", "precision": "12", "range": "immediate"}
    brute = {"id": "brute", "name": "Brute", "side": "gang", "armour": "4", "zone": "yard"}
    await sheet(gm, "Add combatant", brute, weapons={"maul": maul})
    await act(gm, "Set turn order", {"order": ["Rex (rex)", "Brute (brute)"]})
    await press(gm, "Start combat")
    player = await invite(gm, browser, "Rex (rex)")

    for round_ in (1, 2):
        await expect(gm.locator("#turn-line")).to_contain_text(f"Round {round_}")
        await press(player, "Press: rifle", {"target": "brute"})
        await expect(log_line(gm, "Rex declares Press")).to_have_count(round_)
        await press(player, "End my turn")
        await expect(gm.locator("#turn-line")).to_contain_text("Brute")
        await pick(gm, "Brute")
        await press(gm, "Resolve: Brute (combatant)", {}, dice="18")
        await expect(log_line(gm, "avoids Rex's Press")).to_have_count(round_)
        await press(gm, "End Brute's turn")
    await expect(log_line(player, "Round 3 begins")).to_be_visible()
    await expect(gm.locator(".view-part").first).to_contain_text("Rex → Brute")


async def test_two_rounds_of_scentfinder(service: Service, browser: Browser) -> None:
    """Tobin (a player) strikes the Thug with the sword of his sheet; the GM enters the
    degree, the Thug strikes back on phase 3 and fails; two rounds."""
    gm = await create(browser, service, "scentfinder", "The Rope Bridge")
    await act(gm, "Define area", {"id": "camp", "name": "the Camp"})
    await act(gm, "Define area", {"id": "bridge", "name": "the Rope Bridge", "adjacent": ["camp"]})
    sheets: tuple[tuple[str, str, dict[str, Value], str, str], ...] = (
        ("tobin", "Tobin", {"area": "camp"}, "sword", "1d8"),
        (
            "thug",
            "Thug",
            {"pc": False, "side": "bandits", "area": "camp", "phase": "3"},
            "club",
            "1d6",
        ),
    )
    for ident, name, more, weapon, damage in sheets:
        await choose(gm, "Add combatant")
        await fill(gm, {"id": ident, "name": name, "hp": "30", **more})
        await entry(gm, "weapons", weapon, {"damage": damage})
        await item(gm, "held", weapon)
        await act_current(gm)
    await choose(gm, "Initiative")
    await item(gm, "entries", {"combatant": "tobin", "degree": "success", "value": "4"})
    await act_current(gm)
    await press(gm, "Begin")
    player = await invite(gm, browser, "Tobin (tobin)")

    for round_ in (1, 2):
        await expect(player.locator("#turn-line")).to_contain_text(f"Round {round_}")
        await press(player, "Act: sword", {"action": "strike", "target": "thug"})
        await act(gm, "Resolve", {"degree": "success"}, dice="5")
        await expect(log_line(player, "Thug")).not_to_have_count(0)
        await press(player, "End my turn")
        await expect(gm.locator("#turn-line")).to_contain_text("Thug")
        thug = {"actor": "thug", "action": "strike", "target": "tobin", "weapon": "club"}
        await act(gm, "Act", {**thug, "degree": "failure"})
        await press(gm, "End Thug's turn")
    await expect(player.locator("#turn-line")).to_contain_text("Round 3")
    await expect(gm.locator(".combatant", has_text="Thug")).to_contain_text("20/30")


async def test_two_rounds_of_untold_aeons(service: Service, browser: Browser) -> None:
    """Mara (a player) takes a Fast turn and shoots the Cultist with the revolver of her
    sheet; the Narrator answers for the Cultist, who takes a Slow turn to move."""
    gm = await create(browser, service, "untold-aeons", "The flooded crypt")
    traits = {"dexterity": "3", "toughness": "3", "willpower": "3", "intellect": "3"}
    mara = {"id": "mara", "name": "Mara", "side": "investigators", **traits}
    revolver = {"base": "2", "range": "20"}
    await sheet(gm, "Add character", mara, skills={"firearms": "3"}, weapons={"revolver": revolver})
    cultist: dict[str, Value] = {
        "id": "cultist",
        "name": "Cultist",
        "side": "cultists",
        "pc": False,
    }
    cultist |= traits
    await sheet(
        gm, "Add character", {**cultist, "toughness": "5"}, weapons={"dagger": {"base": "1"}}
    )
    await act(gm, "Set distance", {"a": "mara", "b": "cultist", "yards": "10"})
    player = await invite(gm, browser, "Mara (mara)")

    for round_ in (1, 2):
        begin = {"initiating side": "investigators"} if round_ == 1 else {}
        await act(gm, "Begin round", begin)
        await expect(player.locator("#turn-line")).to_contain_text(f"Round {round_}")
        await act(player, "Choose turn", {"speed": "fast"})
        await act(gm, "Choose turn", {"character": "cultist", "speed": "slow"})
        await press(player, "Attack: revolver", {"target": "cultist"})
        await act(gm, "Respond", {"character": "cultist", "response": "none"})
        await act(gm, "Move", {"character": "cultist", "yards": "3"})
        await act(gm, "End turn", {"character": "cultist"})
    await expect(log_line(player, "Cultist moves 3 yards")).to_have_count(2)
    await expect(gm.locator(".view-part").first).to_contain_text("Karma")


async def test_two_rounds_of_aeonisk(service: Service, browser: Browser) -> None:
    """Kaelia (a player) declares an attack with her blade each round and resolves it with
    her own dice; the Goblin declares nothing; the GM moves the phases on."""
    gm = await create(browser, service, "aeonisk", "Cargo hold", player_dice=True)
    defence = {"attribute": "agility", "skill": "athletics"}
    sheets: tuple[tuple[str, str, dict[str, Value], str], ...] = (
        ("kaelia", "Kaelia", {"side": "crew"}, "blade"),
        ("goblin", "Goblin", {"side": "raiders", "pc": False}, "knife"),
    )
    for ident, name, more, weapon in sheets:
        await choose(gm, "Add character")
        await fill(gm, {"id": ident, "name": name, "soak": "10", "defence": defence, **more})
        for attribute, value in (("agility", "3"), ("strength", "2"), ("health", "3")):
            await entry(gm, "attributes", attribute, value)
        for skill, value in (("melee", "3"), ("athletics", "2")):
            await entry(gm, "skills", skill, value)
        await entry(gm, "weapons", weapon, {"bonus": "3"})
        await act_current(gm)
    await act(gm, "Set band", {"a": "kaelia", "b": "goblin", "band": "engaged"})
    player = await invite(gm, browser, "Kaelia (kaelia)")

    attack = {"target": "goblin", "weapon": "blade", "attribute": "agility", "skill": "melee"}
    for round_ in (1, 2):
        await act(gm, "Next phase", {}, dice="10; 4")  # initiative: Kaelia 13, the Goblin 6
        await expect(gm.locator("#turn-line")).to_contain_text(f"Round {round_}")
        await act(gm, "Declare", {"character": "goblin"})
        await choose(player, "Declare")
        await fill(player, {"major": "attack"})
        await fill(player, {"major": attack})
        await act_current(player)
        await press(gm, "Next phase")
        await press(gm, "Next phase")
        await act(player, "Resolve", {}, dice="2; 15")
        await expect(log_line(gm, "Kaelia misses Goblin")).to_have_count(round_)
        await press(gm, "Next phase")
    await expect(log_line(player, "Round 2 begins")).to_be_visible()
    await expect(gm.locator(".view-part").first).to_contain_text("engaged")


async def test_two_rounds_of_aeonis(service: Service, browser: Browser) -> None:
    """House Red (a player) moves a unit out and back over two rounds; the GM builds the
    map, the sides and their units, starts each round and cleans up."""
    gm = await create(browser, service, "aeonis", "Highkeep", {"ap per round": "4"})
    await choose(gm, "Add hexes")
    for hex_, controller, kind in (
        ("-2,0", "red", "city"),
        ("-1,0", "red", "standard"),
        ("0,0", "blue", "standard"),
        ("1,0", "blue", "city"),
    ):
        await item(gm, "hexes", {"hex": hex_, "controller": controller, "kind": kind})
    await act_current(gm)
    for side, home in (("red", "-2,0"), ("blue", "1,0")):
        lord = {
            "name": f"{side} lord",
            "attack die": "d8",
            "defense die": "d6",
            "hp": "3",
            "movement": "2",
        }
        names = {"id": side, "name": f"House {side.title()}", "lord id": f"{side}-lord"}
        await act(gm, "Add side", {**names, "home city": home, "lord": lord})
    for side, hex_, unit in (("red", "-1,0", "r-inf-1"), ("blue", "0,0", "b-inf-1")):
        await choose(gm, "Add units")
        await fill(gm, {"side": side, "hex": hex_})
        await item(gm, "units", {"id": unit, "kind": "infantry"})
        await act_current(gm)
    player = await invite(gm, browser, "House Red (red)")

    for round_, to in ((1, "-2,0"), (2, "-1,0")):
        await press(gm, "Start round")
        await expect(player.locator("#turn-line")).to_contain_text(f"Round {round_}")
        await act(player, "Move units", {"units": ["r-inf-1"], "to": to})
        await expect(gm.locator("#tracker")).to_contain_text(f"hex {to}")
        await press(gm, "Cleanup")
    await expect(gm.locator(".view-part svg")).to_be_visible()
