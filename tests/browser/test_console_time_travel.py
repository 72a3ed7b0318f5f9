"""The GM's round stepper while a secret is open: the GM's own turns go on sealed, and
the page steps through the rounds they were played in, not the round players see."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, expect

from tests.browser.pages import DESKTOP, PHONE, log_line, open_context
from tests.support.processes import Service


async def test_the_round_stepper_counts_sealed_turns_in_their_own_round(
    service: Service, browser: Browser
) -> None:
    """Grak attacks in secret in round 1; the GM's next two turns (sealed until the attack
    is revealed) start round 2.  The GM's page steps back to round 1 and forward to the
    live round 2; the player's page still reads round 1, with nothing filed in round 2."""
    async with httpx.AsyncClient(base_url=service.url) as http:
        created = (
            await http.post("/encounters", json={"ruleset": "generic", "name": "Sealed turns"})
        ).json()
        eid, token = created["encounter_id"], created["gm_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        attack = {"type": "generic.attack", "attacker": "grak", "target": "aria",
                  "notation": "1d20+4", "damage": "1d6"}  # fmt: skip
        bodies: list[dict[str, object]] = [
            {
                "command": {
                    "type": "generic.add_combatant",
                    "id": ident,
                    "name": ident.title(),
                    "hp": 20,
                    "stats": {"ac": 10},
                }
            }
            for ident in ("aria", "grak")
        ]
        bodies += [
            {"command": {"type": "generic.roll_initiative"}, "manual_dice": [[18], [3]]},
            {"command": attack, "manual_dice": [[15], [4]], "hidden": True},
            {"command": {"type": "generic.next_turn"}},
            {"command": {"type": "generic.next_turn"}},
        ]
        for body in bodies:
            answer = await http.post(f"/encounters/{eid}/commands", json=body)
            assert answer.is_success, answer.text
        minted = await http.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    gm = await open_context(browser, f"{service.url}/console/#e={eid}&t={token}", DESKTOP)
    link = f"{service.url}/console/#e={eid}&t={minted.json()['token']}"
    player = await open_context(browser, link, PHONE)
    await expect(gm.locator("#turn-line")).to_contain_text("Round 2 · Aria's turn")
    await expect(player.locator("#turn-line")).to_contain_text("Round 1 · Aria's turn")
    await expect(log_line(player, "sealed as s3")).to_contain_text("R1")

    await gm.get_by_role("button", name="Previous round").click()
    await expect(gm.locator("#viewing")).to_contain_text("Looking back")
    await expect(gm.locator("#turn-line")).to_contain_text("Round 1 · Grak's turn")
    await expect(gm.locator("#version-label")).to_contain_text("round 1")
    await gm.get_by_role("button", name="Next round").click()
    await expect(gm.locator("#viewing")).to_contain_text("Live")
    await expect(gm.locator("#turn-line")).to_contain_text("Round 2 · Aria's turn")

    # The player's slider reads the public round: the sealed turns are filed in round 1.
    await expect(player.locator("#version-label")).to_contain_text("Version 9 of 9 · round 1")
