"""The console's campaign page in a real browser: a GM creates a campaign, builds the
party and the bestiary from sheet forms, starts an encounter with two members and two
copies of a statblock, opens its table, comes back, opens it again from another browser
with the campaign's link alone, and closes it.  A player invited to play a member opens
their character in the fight, a spectator invited to the campaign watches it; the
carry-over of the ended fight shows
by itself and is undone and redone from the page.  Axe finds no violation on the page.
No JSON is typed at any step."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.pages import DESKTOP, PHONE, entry, fill_in, open_context, violations
from tests.support.processes import Service


async def add_sheet(gm: Page, values: dict[str, str], attack: str, button: str) -> None:
    """A sheet typed into the campaign's sheet form (the encounter's add-combatant form),
    an attack as an entry, then added to the party or the bestiary."""
    await fill_in(gm.locator("#sheet-fields"), values)
    weapon, notation, damage = attack.split()
    await entry(
        gm, "attacks", weapon, {"notation": notation, "damage": damage}, form="#sheet-fields"
    )
    await gm.get_by_role("button", name=button).click()


async def test_a_gm_runs_a_campaign_from_the_page(
    service: Service, browser: Browser, screenshots: Path
) -> None:
    gm = await open_context(browser, f"{service.url}/console/", DESKTOP)
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))

    # The carry-over options of the picked ruleset show with their defaults.
    await gm.get_by_label("Rule system of the campaign").select_option("generic")
    await expect(gm.get_by_label("carry conditions")).to_be_checked()
    await gm.get_by_label("Campaign name").fill("Ashes of the North")
    await gm.get_by_role("button", name="Begin the campaign").click()
    await expect(gm.locator("#campaign-title")).to_contain_text("Ashes of the North")
    await expect(gm.locator("#status")).to_contain_text("Game master of the campaign")
    await expect(gm.get_by_text("Keep the campaign's link")).to_be_visible()
    assert await gm.get_by_label("Your campaign link").input_value() == gm.url

    # Two members and a statblock from the ruleset's own sheet form.
    await gm.get_by_text("Add a character from a sheet").click()
    await add_sheet(
        gm, {"id": "aria", "name": "Aria", "hp": "20"}, "sword 1d20+5 1d8+3", "Add to the party"
    )
    party = gm.locator("#party")
    await expect(party.locator(".combatant", has_text="Aria")).to_contain_text("20/20 hp")
    await add_sheet(
        gm, {"id": "borin", "name": "Borin", "hp": "26"}, "axe 1d20+4 1d8+2", "Add to the party"
    )
    await expect(party.locator(".combatant", has_text="Borin")).to_contain_text("26/26 hp")
    await expect(party.locator(".combatant", has_text="Borin")).to_contain_text(
        "Condition: as the sheet gives it"
    )
    await gm.get_by_label("Hit points notation, for a statblock").fill("2d6+1")
    await add_sheet(
        gm, {"id": "goblin", "name": "Goblin", "hp": "7"}, "club 1d20+2 1d6", "Add to the bestiary"
    )
    goblin = gm.locator("#bestiary .combatant", has_text="Goblin")
    await expect(goblin).to_contain_text("7/7 hp")
    await expect(goblin).to_contain_text("rolled: 2d6+1")
    await expect(gm.locator("#campaign-log li").first).to_contain_text("Goblin enters the bestiary")

    # A refusal shows the service's words, and nothing is written.
    await gm.get_by_label("Hit points notation, for a statblock").fill("many")
    await add_sheet(
        gm, {"id": "orc", "name": "Orc", "hp": "15"}, "axe 1d20+3 1d12", "Add to the bestiary"
    )
    await expect(gm.locator("#campaign-problem")).to_contain_text("Refused")
    await expect(gm.locator("#bestiary .combatant")).to_have_count(1)

    # Start an encounter: both members, two Goblins, their hit points rolled (2d6+1) on
    # the encounter's dice.
    await gm.get_by_label("Encounter name").fill("Ambush at the ford")
    await gm.locator("#encounter-members").get_by_label("Aria").check()
    await gm.locator("#encounter-members").get_by_label("Borin").check()
    await gm.get_by_label("Copies of Goblin").fill("2")
    await gm.get_by_label("Hit points of Goblin").select_option("rolled")
    await gm.get_by_role("button", name="Start the encounter").click()

    # Its table opens with the party and the copies, the GM's link to keep, and a way back.
    await expect(gm.locator("#encounter-title")).to_contain_text("Ambush at the ford")
    await expect(gm.locator("#status")).to_contain_text("Game master · live")
    tracker = gm.locator("#tracker")
    for name in ("Aria", "Borin", "Goblin 1", "Goblin 2"):
        await expect(tracker.locator(".combatant", has_text=name)).to_have_count(1)
    await expect(tracker.locator(".combatant", has_text="Aria")).to_contain_text("20/20 hp")
    rolled = re.compile(r"Goblin 2\s*([3-9]|1[0-3])/\1 hp")  # 2d6+1: its full hit points
    await expect(tracker.locator(".combatant", has_text="Goblin 2")).to_contain_text(rolled)
    await expect(gm.get_by_text("Keep this link")).to_be_visible()
    await gm.get_by_role("link", name="Back to the campaign").click()

    # The campaign lists the encounter, under way, its members away.
    await expect(gm.locator("#campaign-title")).to_contain_text("Ashes of the North")
    fight = gm.locator("#campaign-encounters .encounter", has_text="Ambush at the ford")
    await expect(fight).to_contain_text("under way")
    await expect(fight).to_contain_text("Goblin 1")
    await expect(party.locator(".combatant", has_text="Aria")).to_contain_text(
        "in Ambush at the ford"
    )
    await expect(gm.locator("#encounter-members").get_by_label("Aria (away")).to_be_disabled()
    await expect(gm.locator("#campaign-log li").first).to_contain_text(
        '"Ambush at the ford" begins with Aria and Borin, against Goblin 1'
    )
    await gm.screenshot(path=str(screenshots / "console-campaign.png"), full_page=True)

    # Its link opens the table again, from any browser with the campaign's link: the
    # campaign's GM token opens its encounters (another context keeps nothing of this one).
    await expect(
        fight.get_by_role("link", name="Open the table of Ambush at the ford")
    ).to_be_visible()
    elsewhere = await open_context(browser, gm.url, DESKTOP)
    await elsewhere.get_by_role("link", name="Open the table of Ambush at the ford").click()
    await expect(elsewhere.locator("#status")).to_contain_text("Game master · live")
    await expect(elsewhere.locator("#tracker .combatant", has_text="Goblin 2")).to_have_count(1)
    await elsewhere.get_by_role("link", name="Back to the campaign").click()
    await expect(elsewhere.locator("#campaign-title")).to_contain_text("Ashes of the North")
    await elsewhere.context.close()

    # Closing it without a reason is refused by the page, with one the members come back.
    close = fight.get_by_role("button", name="Close Ambush at the ford without carrying over")
    await close.click()
    await expect(gm.locator("#campaign-problem")).to_contain_text("give a reason")
    await fight.get_by_label("Reason (Ambush at the ford)").fill("the goblins fled")
    await close.click()
    await expect(fight).to_contain_text("closed without carrying over")
    await expect(gm.locator("#campaign-log li").first).to_contain_text(
        "closes without carrying anything over: the goblins fled"
    )
    await expect(gm.locator("#encounter-members").get_by_label("Aria")).to_be_enabled()
    assert not errors, errors


async def test_axe_finds_no_violation_on_the_campaign_page(
    service: Service, browser: Browser
) -> None:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        created = (await http.post("/campaigns", json={"ruleset": "generic", "name": "Axe"})).json()
        cid, token = created["campaign_id"], created["gm_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        for ident, hp in (("aria", 20), ("goblin", 7)):
            kind = "campaign.add_member" if ident == "aria" else "campaign.add_statblock"
            sheet = {"type": "generic.add_combatant", "id": ident, "name": ident.title(), "hp": hp}
            answer = await http.post(
                f"/campaigns/{cid}/commands", json={"command": {"type": kind, "sheet": sheet}}
            )
            assert answer.is_success, answer.text
        pick = {"statblock": "goblin", "count": 2}
        started = await http.post(
            f"/campaigns/{cid}/encounters",
            json={"name": "Skirmish", "members": ["aria"], "monsters": [pick]},
        )
        assert started.status_code == 201, started.text
    context = await browser.new_context(viewport=DESKTOP, bypass_csp=True)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(f"{service.url}/console/#c={cid}&t={token}")
    await expect(page.locator("#campaign-encounters .encounter")).to_contain_text("Skirmish")
    await page.get_by_text("Add a character from a sheet").click()
    await page.get_by_text("Invite a player to play a member").click()
    await page.get_by_text("Tokens of the campaign").click()
    await expect(page.locator("#campaign-tokens li")).to_have_count(1)
    await page.get_by_text("Statistics: the campaign's fights added up").click()
    await expect(page.locator("#campaign-stats-counted")).to_contain_text("Skirmish")
    assert await violations(page) == []


async def _campaign_with_a_fight(http: httpx.AsyncClient) -> tuple[str, str, str, str]:
    """A generic campaign whose member Aria (20 hp) lost 8 hp in an encounter still under
    way: the campaign's id and GM token, the encounter's id and GM token."""
    created = (await http.post("/campaigns", json={"ruleset": "generic", "name": "Road"})).json()
    cid, token = created["campaign_id"], created["gm_token"]
    gm = {"Authorization": f"Bearer {token}"}
    aria = {"type": "generic.add_combatant", "id": "aria", "name": "Aria", "hp": 20}
    command = {"command": {"type": "campaign.add_member", "sheet": aria}}
    assert (await http.post(f"/campaigns/{cid}/commands", json=command, headers=gm)).is_success
    fight = {"name": "Ambush", "members": ["aria"]}
    started = await http.post(f"/campaigns/{cid}/encounters", json=fight, headers=gm)
    assert started.status_code == 201, started.text
    eid, table = started.json()["encounter_id"], started.json()["gm_token"]
    await _table_command(
        http, eid, table, {"type": "generic.damage", "target": "aria", "amount": 8}
    )
    return cid, token, eid, table


async def _table_command(
    http: httpx.AsyncClient, eid: str, token: str, command: dict[str, object]
) -> None:
    answer = await http.post(
        f"/encounters/{eid}/commands",
        json={"command": command},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.is_success, answer.text


async def test_a_carry_over_shows_when_a_fight_ends_and_is_undone_and_redone_from_the_page(
    service: Service, browser: Browser
) -> None:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        cid, token, eid, table = await _campaign_with_a_fight(http)
        gm = await open_context(browser, f"{service.url}/console/#c={cid}&t={token}", DESKTOP)
        errors: list[str] = []
        gm.on("pageerror", lambda e: errors.append(str(e)))
        aria = gm.locator("#party .combatant", has_text="Aria")
        await expect(aria).to_contain_text("in Ambush")

        # A player invited to play Aria opens her in the encounter under way.
        await gm.get_by_text("Invite a player to play a member").click()
        await gm.get_by_label("Member the player plays").select_option("aria")
        await gm.get_by_label("Player's name (optional)").fill("Sam")
        await gm.get_by_role("button", name="Invite the player").click()
        invite = gm.get_by_role("link", name="Link to the encounter aria fights in now")
        player_link = await invite.get_attribute("href")
        assert player_link and f"#e={eid}&t=" in player_link
        player = await open_context(browser, player_link, PHONE)
        await expect(player.locator("#status")).to_contain_text("Player of aria")
        # A spectator invited to the campaign watches the same encounter, and only watches.
        await gm.get_by_text("Invite a spectator").click()
        await gm.get_by_label("Spectator's name (optional)").fill("Lee")
        await gm.get_by_role("button", name="Invite the spectator").click()
        await expect(gm.get_by_label("Spectator token of Lee")).not_to_have_value("")
        watch_link = await gm.get_by_label(re.compile(r"^Link to Ambush")).input_value()
        assert f"#e={eid}&t=" in watch_link
        watcher = await open_context(browser, watch_link, PHONE)
        await expect(watcher.locator("#status")).to_contain_text("Spectator")

        await _table_command(http, eid, table, {"type": "generic.end_encounter"})

    # The service carries the ended fight over; the page, following an encounter under
    # way, shows it by itself.
    await expect(gm.locator("#status")).to_contain_text("Carried over", timeout=15_000)
    await expect(aria).to_contain_text("12/20 hp")
    await expect(aria).not_to_contain_text("in Ambush")
    await expect(gm.locator("#campaign-log li").first).to_contain_text('"Ambush" at version')
    await expect(gm.locator("#campaign-log li").first).to_contain_text("carries over: Aria: hp 12")
    fight = gm.locator("#campaign-encounters .encounter", has_text="Ambush")
    await expect(fight).to_contain_text("Aria: hp 12")

    await fight.get_by_label("Reason (Ambush)").fill("the healer was there")
    await fight.get_by_role("button", name="Undo the carry-over of Ambush").click()
    await expect(aria).to_contain_text("20/20 hp")
    await expect(gm.locator("#campaign-log li").first).to_contain_text(
        "is undone: the healer was there"
    )
    await expect(fight.get_by_label("Reason (Ambush)")).to_have_value("")
    await fight.get_by_label("Reason (Ambush)").fill("she was not")
    await fight.get_by_role("button", name="Redo the carry-over of Ambush").click()
    await expect(aria).to_contain_text("12/20 hp")
    await expect(gm.locator("#campaign-log li").first).to_contain_text("is redone: she was not")
    assert not errors, errors


async def test_an_encounter_starts_on_ground_laid_from_the_page(
    service: Service, browser: Browser
) -> None:
    """A TACTICS member stands in a zone: the GM lays the zone with the ruleset's own form
    before the party arrives, and the table opens with her there."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        created = (
            await http.post("/campaigns", json={"ruleset": "tactics", "name": "Docks"})
        ).json()
        cid, token = created["campaign_id"], created["gm_token"]
        kara = {"type": "tactics.add_combatant", "id": "kara", "name": "Kara", "zone": "pier"}
        fall = {"wounds": [{"amount": 3, "source": "a fall"}], "shields": 0, "status": "active"}
        for command in (
            {"type": "campaign.add_member", "sheet": kara},
            {"type": "campaign.adjust", "member": "kara", "condition": fall, "reason": "a fall"},
        ):
            answer = await http.post(
                f"/campaigns/{cid}/commands",
                json={"command": command},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.is_success, answer.text
    gm = await open_context(browser, f"{service.url}/console/#c={cid}&t={token}", DESKTOP)
    # Her wounds against the ruleset's limit, as the tracker draws them.
    await expect(gm.locator("#party .combatant", has_text="Kara")).to_contain_text("3/20 wounds")
    await gm.get_by_label("Encounter name").fill("Night on the pier")
    await gm.locator("#encounter-members").get_by_label("Kara").check()
    await gm.locator("#encounter-options").get_by_label("press penalty step").fill("2")
    ground = gm.locator("#encounter-ground")
    await ground.get_by_label("Ground command").select_option(label="Add zone")
    await fill_in(ground.locator("#ground-fields"), {"id": "pier"})
    await ground.get_by_role("button", name="Add to the ground").click()
    await expect(ground.get_by_role("list", name="The ground laid so far")).to_contain_text(
        "Add zone: pier"
    )
    await gm.get_by_role("button", name="Start the encounter").click()
    await expect(gm.locator("#encounter-title")).to_contain_text("Night on the pier")
    kara_row = gm.locator("#tracker .combatant", has_text="Kara")
    await expect(kara_row).to_contain_text("zone pier")
    await expect(kara_row).to_contain_text("3/20 wounds")


async def test_the_gm_revokes_a_token_and_reads_the_statistics_at_a_version_from_the_page(
    service: Service, browser: Browser
) -> None:
    """A player's token minted elsewhere is listed and revoked from the page (the GM's own
    has no Revoke: the service refuses it); the statistics read now and at a version
    before the fight began, and a version not reached shows the service's words."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        cid, token, eid, _ = await _campaign_with_a_fight(http)  # v3: the fight begins
        minted = await http.post(
            f"/campaigns/{cid}/tokens",
            json={"member": "aria", "label": "Sam"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert minted.status_code == 201, minted.text
        sam = minted.json()["token"]
    gm = await open_context(browser, f"{service.url}/console/#c={cid}&t={token}", DESKTOP)
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))
    await expect(gm.locator("#campaign-encounters .encounter")).to_contain_text("Ambush")

    await gm.get_by_text("Tokens of the campaign").click()
    tokens = gm.locator("#campaign-tokens")
    own = tokens.locator(f"[data-token='{token.partition('.')[0]}']")
    await expect(own).to_contain_text("its only one: it cannot be revoked")
    await expect(own.get_by_role("button")).to_have_count(0)
    await tokens.get_by_role("button", name="Revoke Sam").click()
    await expect(tokens.locator(f"[data-token='{sam.partition('.')[0]}']")).to_contain_text(
        "revoked"
    )
    await expect(gm.locator("#campaign-problem")).to_be_empty()
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        shut = await http.get(f"/encounters/{eid}", headers={"Authorization": f"Bearer {sam}"})
        assert shut.status_code == 401

    await gm.get_by_text("Statistics: the campaign's fights added up").click()
    counted = gm.locator("#campaign-stats-counted")
    await expect(counted).to_contain_text("counted: Ambush at v")
    await expect(gm.locator("#campaign-stats [data-combatant=aria]")).to_contain_text("8")
    await gm.get_by_label("As the campaign stood at version").fill("2")
    await gm.get_by_role("button", name="Show the statistics").click()
    await expect(counted).to_contain_text("Campaign version 2 · no encounter started yet")
    await expect(gm.locator("#campaign-stats [data-combatant]")).to_have_count(0)
    await gm.get_by_label("As the campaign stood at version").fill("99")
    await gm.get_by_role("button", name="Show the statistics").click()
    await expect(gm.locator("#campaign-problem")).to_contain_text("has no version 99 yet")
    assert not errors, errors
