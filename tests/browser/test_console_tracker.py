"""The GM's tracker beyond the fight of test_console.py: initiative set from the row, and
the invite panel's QR code, copy button and revoke."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, expect

from tests.browser.pages import DESKTOP, field, fill, log_line, open_context, table
from tests.support.processes import Service


async def test_the_gm_sets_initiative_from_the_tracker(service: Service, browser: Browser) -> None:
    """Pressing a row's initiative opens the ruling that sets it, filled in for that
    combatant; the order moves, the turn stays, and the next round starts with the
    combatant moved to the top."""
    async with httpx.AsyncClient(base_url=service.url) as http:
        eid, token, _ = await table(http, "Ambush", 0)
        initiative = {"command": {"type": "generic.roll_initiative"}, "manual_dice": [[15], [10]]}
        answer = await http.post(f"/encounters/{eid}/commands", json=initiative)
        assert answer.is_success, answer.text
    gm = await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP)
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 · Aria's turn · next Grak")
    await gm.get_by_role("button", name="Set initiative of Grak (10)").click()
    await expect(gm.get_by_label("Command", exact=True)).to_have_value("generic.adjudicate")
    await expect(field(gm, "ruling")).to_have_value("set_value")
    await expect(field(gm, "combatant")).to_have_value("grak")
    await expect(field(gm, "field")).to_have_value("initiative")
    await fill(gm, {"value": "20", "reason": "Grak sprang the ambush"})
    await gm.get_by_role("button", name="Send").click()
    await expect(log_line(gm, "Grak's initiative set to 20 (was 10)")).to_be_visible()
    await expect(gm.locator(".combatant").first).to_contain_text("Grak")
    await expect(gm.locator(".combatant").first.locator(".init")).to_have_text("20")
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 · Aria's turn")
    await gm.get_by_role("button", name="Next turn").click()
    await expect(gm.locator("#turn-line")).to_contain_text("Round 2 · Grak's turn · next Aria")


async def test_an_invite_has_a_qr_code_a_copy_button_and_can_be_revoked(
    service: Service, browser: Browser
) -> None:
    async with httpx.AsyncClient(base_url=service.url) as http:
        eid, token, _ = await table(http, "Invites", 0)
    gm = await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP)
    await gm.get_by_text("Invite players and spectators").click()
    await gm.get_by_label("Role").select_option("spectator")
    await gm.get_by_label("Label").fill("stream")
    await gm.get_by_role("button", name="Mint token").click()
    minted = gm.locator(".minted").first
    await expect(minted.get_by_role("img", name="QR code of the link for stream")).to_be_visible()
    await expect(minted.get_by_role("button", name="Copy link")).to_be_visible()
    link = await minted.get_by_label("Link for stream").input_value()
    spectator = link.split("&t=")[1]
    async with httpx.AsyncClient(base_url=service.url) as http:
        seen = await http.get(
            f"/encounters/{eid}", headers={"Authorization": f"Bearer {spectator}"}
        )
        assert seen.status_code == 200
        await gm.get_by_role("button", name="Revoke stream").click()
        await expect(gm.locator("#token-list li", has_text="stream")).to_contain_text("revoked")
        refused = await http.get(
            f"/encounters/{eid}", headers={"Authorization": f"Bearer {spectator}"}
        )
        assert refused.status_code == 401, refused.text
