"""What the browser tests share: the two screens a person uses, a page opened in a
browser of its own, and an encounter played through the API to load pages on."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import httpx
from playwright.async_api import Browser, Locator, Page, expect

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


def field(page: Page, name: str):  # type: ignore[no-untyped-def]
    """A command field by its label, as a screen reader names it."""
    return page.locator("#command-fields").get_by_label(
        re.compile(rf"^{re.escape(name)}( \(optional\))?$")
    )


async def choose(page: Page, title: str) -> None:
    """Pick a command by the title the picker shows."""
    await page.get_by_label("Command", exact=True).select_option(label=title)


Value = str | bool | list[str] | Mapping[str, "Value"]
"""What a person enters in a field: text (or the option to pick), a tick, the boxes to
tick in a list, or the subfields of a structured value."""


async def put(box: Locator, value: Value) -> None:
    """Enter ``value`` in one input: pick an option, tick a box, or type."""
    if isinstance(value, bool):
        await box.set_checked(value)
    elif await box.evaluate("e => e.tagName") == "SELECT":
        await box.select_option(value)  # type: ignore[arg-type]
    else:
        await box.fill(str(value))


def sub(scope: Locator, name: str) -> Locator:
    """A subfield of a structured value (or a row) by its label."""
    return scope.get_by_label(re.compile(rf"^{re.escape(name)}( \(optional\))?$"))


async def fill_in(scope: Locator, values: Mapping[str, Value]) -> None:
    """Fill the labelled inputs of ``scope``: a list ticks the boxes of those labels, a
    dict fills the subfields of a structured value."""
    for name, value in values.items():
        group = scope.locator(f'[data-field="{name}"]')
        if not await group.count():
            group = scope
        if isinstance(value, list):
            for label in value:
                await group.get_by_label(label, exact=True).check()
        elif isinstance(value, Mapping):
            await fill_in(group, value)
        else:
            await put(sub(group, name), value)


async def fill(page: Page, values: Mapping[str, Value]) -> None:
    """Fill a command's fields by label: a picker gets its option chosen, a box gets
    typed into, a checkbox ticked, a checklist's named boxes ticked."""
    await fill_in(page.locator("#command-fields"), values)


async def entry(
    page: Page,
    name: str,
    key: str,
    values: Mapping[str, Value] | str,
    *,
    form: str = "#command-fields",
) -> None:
    """Add one named entry to a structured field (a sheet's stats or attacks) of the
    form at ``form`` (the command's, or the campaign page's sheet)."""
    await page.locator(form).get_by_role("button", name=f"Add entry to {name}").click()
    row = page.locator(f'{form} [data-field="{name}"] li.row').last
    await row.get_by_label(f"{name}: name").fill(key)
    if isinstance(values, str):
        await row.get_by_label(f"{name}: value").fill(values)
        return
    await fill_in(row, values)


async def item(page: Page, name: str, values: Mapping[str, Value] | str) -> None:
    """Add one item to a list field (a hex, a unit, an initiative entry)."""
    await page.get_by_role("button", name=f"Add item to {name}").click()
    row = page.locator(f'#command-fields [data-field="{name}"] li.row').last
    if isinstance(values, str):
        await put(row.locator("input, select").first, values)
        return
    await fill_in(row, values)


async def send(
    page: Page,
    title: str,
    values: Mapping[str, Value],
    *,
    dice: str = "",
    hidden: bool = False,
) -> None:
    """Fill the form of the command titled ``title`` and send it."""
    await choose(page, title)
    await fill(page, values)
    await page.get_by_label(re.compile("^Manual dice")).fill(dice)
    if hidden:
        await page.get_by_label("Roll in secret").check()
    await page.get_by_role("button", name="Send").click()


def log_line(page: Page, text: str):  # type: ignore[no-untyped-def]
    return page.locator("#log li", has_text=text)


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


AXE = Path(__file__).parent / "vendor" / "axe.min.js"
"""axe-core, vendored: the accessibility checks run offline."""


async def violations(page: Page) -> list[str]:
    await page.add_script_tag(path=str(AXE))
    found = await page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(", ")})`)"""
    )
    return list(found)
