"""What the console costs and how it reads on a phone and over a stream: bytes per
command per client once the page is loaded, the player page's height, and the
spectator overlay (transparent, newest first, parts by URL, the user's own stylesheet)."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.pages import DESKTOP, PHONE, command, open_context, table
from tests.support.processes import Service

RESOURCES = """() => performance.getEntriesByType("resource")
    .filter((e) => e.initiatorType === "fetch" && !e.name.endsWith("/live"))
    .reduce((n, e) => n + e.transferSize, 0)"""


async def fetched(page: Page) -> int:
    return int(await page.evaluate(RESOURCES)) + int(
        await page.evaluate("Number(document.body.dataset.liveChars || 0)")
    )


async def test_after_the_first_load_a_command_costs_each_client_its_new_entries(
    service: Service, browser: Browser
) -> None:
    """On an 800-command encounter, the GM's page and a player's read only what is new
    per command (the state, the new log entries and rolls, the live event): under 20 KB
    each, where reading the log, ledger and events again would be megabytes."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        eid, token, player_token = await table(http, "Long fight", 800)
        pages = [
            await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP),
            await open_context(browser, f"{service.url}/console/#e={eid}&t={player_token}", PHONE),
        ]
        for page in pages:
            await expect(page.locator("body")).to_have_attribute("data-verified", "1")
        before = [await fetched(page) for page in pages]
        sent = 10
        for i in range(sent):
            version = await command(http, eid, 800 + i)
            for page in pages:
                await expect(page.locator("body")).to_have_attribute("data-shown", str(version))
        for page, start in zip(pages, before, strict=True):
            per_command = (await fetched(page) - start) / sent
            assert per_command < 20_000, f"{per_command:.0f} bytes per command"
        # The log pages: the newest entries only, the rest behind "Show older".
        await expect(pages[0].locator("#log li")).to_have_count(20)
        await pages[0].get_by_role("button", name="Show 20 older entries").click()
        await expect(pages[0].locator("#log li")).to_have_count(40)


async def test_the_player_page_stays_short_on_a_phone(service: Service, browser: Browser) -> None:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        eid, _, player_token = await table(http, "Forty events", 36)
    link = f"{service.url}/console/#e={eid}&t={player_token}"
    player = await open_context(browser, link, PHONE)
    await expect(player.locator("body")).to_have_attribute("data-verified", "1")
    assert int(await player.evaluate("Number(document.body.dataset.shown)")) >= 40
    height = await player.evaluate("document.documentElement.scrollHeight")
    assert height < 4 * PHONE["height"], f"{height} px"
    # Newest first, and the sheet's attack is a button.
    versions = await player.locator("#log li").evaluate_all(
        "items => items.map((li) => Number(li.dataset.version))"
    )
    assert versions == sorted(versions, reverse=True)
    await player.get_by_role("button", name="Attack: sword").click()
    await expect(player.get_by_label("using (optional)")).to_have_value("sword")


async def test_the_spectator_overlay_is_transparent_and_newest_first(
    service: Service, browser: Browser, screenshots: Path
) -> None:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        eid, _, _ = await table(http, "On stream", 8)
        minted = await http.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
        spectator = minted.json()["token"]
        link = (
            f"{service.url}/console/#e={eid}&t={spectator}&parts=tracker,log&size=large&entries=5"
        )
        page = await open_context(browser, link, {"width": 640, "height": 480})
        await expect(page.locator("#log li")).to_have_count(5)
        for selector in ("html", "body"):
            background = await page.eval_on_selector(
                selector, "e => getComputedStyle(e).backgroundColor"
            )
            assert background == "rgba(0, 0, 0, 0)", (selector, background)
        assert await page.eval_on_selector("body", "e => getComputedStyle(e).textShadow") != "none"
        await expect(page.locator("#ledger-section")).to_be_hidden()
        # A new entry arrives live on top.
        version = await command(http, eid, 99)
        await expect(page.locator("#log li").first).to_have_attribute("data-version", str(version))
        versions = await page.locator("#log li").evaluate_all(
            "items => items.map((li) => Number(li.dataset.version))"
        )
        assert versions == sorted(versions, reverse=True)
        await page.screenshot(path=screenshots / "console-overlay.png", omit_background=True)
        # The policy lets a streamer's own stylesheet in (streaming software injects it).
        await page.add_style_tag(content="#log li { letter-spacing: 3px; }")
        spacing = await page.eval_on_selector("#log li", "e => getComputedStyle(e).letterSpacing")
        assert spacing == "3px"
        # The invite link's QR code: an SVG drawn by the service; nonsense is a problem.
        qr = await http.post("/console/qr", json={"text": link})
        assert qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.content
        bad = await http.post("/console/qr", json={"text": ""})
        assert bad.status_code == 400
        assert bad.headers["content-type"] == "application/problem+json"
