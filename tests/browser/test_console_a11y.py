"""Accessibility: axe-core (vendored in tests/browser/vendor, version in its banner)
finds no violation on the GM's, a player's and a spectator's page of a running fight,
and the GM runs a turn from the keyboard alone."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.pages import DESKTOP, PHONE, table, violations
from tests.support.processes import Service


async def axe_page(browser: Browser, link: str, viewport: dict[str, int]) -> Page:
    # The page's content policy lets only its own scripts run; axe is the test's, so the
    # context bypasses the policy (the page's own behaviour is unchanged by it).
    context = await browser.new_context(viewport=viewport, bypass_csp=True)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(link)
    if "#e=" in link:
        await expect(page.locator("body")).to_have_attribute("data-verified", "1")
    else:
        await expect(page.get_by_label("Ruleset")).to_contain_text("generic")
    return page


async def test_axe_finds_no_violation_on_the_gm_player_and_spectator_pages(
    service: Service, browser: Browser
) -> None:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        eid, token, player_token = await table(http, "Accessible", 6)
        spectator = (
            await http.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
        ).json()
    base = f"{service.url}/console/#e={eid}&t="
    for link, viewport in (
        (base + token, DESKTOP),
        (base + player_token, PHONE),
        (base + spectator["token"], DESKTOP),
    ):
        page = await axe_page(browser, link, viewport)
        if "Game master" in await page.locator("#status").inner_text():
            # Open what the GM opens: a combatant's actions and the history.
            await page.get_by_role("button", name="Grak", exact=True).click()
            await page.get_by_text("Undo history").click()
        assert await violations(page) == [], link
    start = await axe_page(browser, f"{service.url}/console/", DESKTOP)
    assert await violations(start) == []


async def test_the_gm_runs_a_turn_from_the_keyboard(service: Service, browser: Browser) -> None:
    """Tab to a combatant, open its actions, fill the damage form and send it with Enter."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        eid, token, _ = await table(http, "Keyboard", 0)
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(f"{service.url}/console/#e={eid}&t={token}")
    await expect(page.locator("#status")).to_contain_text("live")

    async def tab_to(name: str) -> None:
        for _ in range(80):
            await page.keyboard.press("Tab")
            label = await page.evaluate(
                "document.activeElement && document.activeElement.textContent.trim()"
            )
            if label == name:
                return
        raise AssertionError(f"Tab never reached {name}")

    await tab_to("Grak")
    await page.keyboard.press("Enter")
    # Picking moves focus to the first action; Tab on to "Damage: Grak (target)".
    await expect(page.get_by_role("group", name="Act on Grak")).to_be_visible()
    await page.keyboard.press("Shift+Tab")
    await tab_to("Damage: Grak (target)")
    await page.keyboard.press("Enter")
    # The form's first field has the focus; Tab to amount and type it.
    await expect(page.get_by_label("target", exact=True)).to_have_value("grak")
    for _ in range(10):
        if await page.evaluate("document.activeElement.id") == "f-generic_damage-amount":
            break
        await page.keyboard.press("Tab")
    await page.keyboard.type("7")
    await page.keyboard.press("Enter")
    await expect(page.locator(".combatant", has_text="Grak")).to_contain_text("53/60 hp")
