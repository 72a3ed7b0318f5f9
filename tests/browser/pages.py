"""What the browser tests share: the two screens a person uses, a page opened in a
browser of its own, and an encounter played through the API to load pages on."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, Page, expect

PHONE = {"width": 390, "height": 844}


DESKTOP = {"width": 1280, "height": 900}


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


async def command(http: httpx.AsyncClient, eid: str, i: int) -> int:
    """Every fourth command an attack from the sheet (server dice, a roll in the ledger),
    the others damage and healing."""
    if i % 4 == 3:
        attack = {"type": "generic.attack", "attacker": "aria", "target": "grak", "using": "sword"}
        body: dict[str, object] = {"command": attack}
    else:
        kind = "generic.damage" if i % 2 == 0 else "generic.heal"
        body = {"command": {"type": kind, "target": "grak", "amount": 1 + i % 5}}
    answer = await http.post(f"/encounters/{eid}/commands", json=body)
    assert answer.is_success, answer.text
    return int(answer.json()["events"][-1]["stream_version"])


async def table(http: httpx.AsyncClient, name: str, commands: int) -> tuple[str, str, str]:
    """A generic encounter with two combatants and ``commands`` more commands (attacks,
    damage and healing); its id, the GM token and a player token for Aria."""
    created = (await http.post("/encounters", json={"ruleset": "generic", "name": name})).json()
    eid, token = created["encounter_id"], created["gm_token"]
    http.headers["Authorization"] = f"Bearer {token}"
    sword = {"sword": {"notation": "1d20+5", "damage": "1d8+3"}}
    for ident, hp in (("aria", 30), ("grak", 60)):
        add = {"type": "generic.add_combatant", "id": ident, "name": ident.title(), "hp": hp,
               "stats": {"ac": 12}, "attacks": sword}  # fmt: skip
        assert (await http.post(f"/encounters/{eid}/commands", json={"command": add})).is_success
    for i in range(commands):
        await command(http, eid, i)
    minted = await http.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    return eid, token, minted.json()["token"]
