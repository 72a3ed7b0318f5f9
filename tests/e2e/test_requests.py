"""Players act from their sheet; anything else is a request the GM allows or refuses
(issue 16), recorded as events either way."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, combatant, command, create

SWORD = {"sword": {"notation": "1d20+5", "damage": "1d8"}}
OFF_SHEET = {"type": "generic.attack", "attacker": "aria", "target": "grak",
             "notation": "1d20+9", "damage": "2d6"}  # fmt: skip


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _table(client: Client) -> tuple[str, dict[str, str]]:
    eid = await create(client, "Requests")
    for who in ("aria", "borin", "grak"):
        await command(client, eid, {**combatant(who, 20, ac=10), "attacks": SWORD})
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    return eid, bearer(minted.json()["token"])


async def _request(
    client: Client, eid: str, sam: dict[str, str], body: dict[str, Any]
) -> dict[str, Any]:
    response = await client.post(f"/encounters/{eid}/requests", json=body, headers=sam)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_an_off_sheet_attack_is_a_request_the_gm_allows(client: Client) -> None:
    eid, sam = await _table(client)
    refused = await client.post(
        f"/encounters/{eid}/commands", json={"command": OFF_SHEET}, headers=sam
    )
    assert refused.status_code == 403
    assert "send a request the GM can approve" in refused.json()["detail"]

    asked = await _request(
        client, eid, sam, {"command": OFF_SHEET, "note": "the runed blade from the altar"}
    )
    made = asked["events"][0]
    assert made["type"] == "encounter.request_made" and made["data"]["request_id"] == "q1"
    state = (await client.get(f"/encounters/{eid}", headers=sam)).json()["state"]
    assert state["requests"]["q1"]["command"]["notation"] == "1d20+9"

    allowed = await client.post(
        f"/encounters/{eid}/requests/q1/approve", json={"manual_dice": [[12], [5, 6]]}
    )
    assert allowed.status_code == 200, allowed.text
    types = [e["type"] for e in allowed.json()["events"]]
    assert types == ["generic.attack_rolled", "generic.damaged", "encounter.request_answered"]
    assert allowed.json()["events"][1]["data"]["hp_after"] == 9
    assert (await client.get(f"/encounters/{eid}")).json()["state"]["requests"] == {}
    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "Request q1: a player asks the GM to allow generic.attack" in log
    assert "(the runed blade from the altar)" in log
    assert "The GM allows request q1." in log
    again = await client.post(f"/encounters/{eid}/requests/q1/approve")
    assert again.status_code == 422
    assert "no request 'q1' is waiting" in again.json()["detail"]


async def test_the_gm_refuses_with_a_reason_and_players_ask_only_for_their_own(
    client: Client,
) -> None:
    eid, sam = await _table(client)
    await _request(client, eid, sam, {"command": {**OFF_SHEET, "notation": "1d20+1000"}})
    refused = await client.post(
        f"/encounters/{eid}/requests/q1/refuse", json={"reason": "no such bonus exists"}
    )
    assert refused.status_code == 200, refused.text
    assert [e["type"] for e in refused.json()["events"]] == ["encounter.request_answered"]
    log = (await client.get(f"/encounters/{eid}/log.txt", headers=sam)).text
    assert "The GM refuses request q1: no such bonus exists" in log
    theirs = await client.post(
        f"/encounters/{eid}/requests",
        json={"command": {**OFF_SHEET, "attacker": "borin"}},
        headers=sam,
    )
    assert theirs.status_code == 403
    assert "only for their own combatants, not for borin" in theirs.json()["detail"]
    gm_only = await client.post(f"/encounters/{eid}/requests/q1/approve", headers=sam)
    assert gm_only.status_code == 403
