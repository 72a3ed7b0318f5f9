"""The campaign's GM token opens every encounter started from its campaign with the
encounter GM's rights (a copy among the encounter's tokens), and no other encounter: one
of another campaign and a plain one answer 401, as any token of another encounter does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Client, combatant, create

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _campaign_with_an_encounter(client: Client, name: str) -> tuple[str, str, str]:
    """A generic campaign whose member Aria (22 hp) fights in an encounter: the campaign's
    id, its GM token and the encounter's id."""
    created = await client.post("/campaigns", json={"ruleset": "generic", "name": name})
    assert created.status_code == 201, created.text
    campaign, token = created.json()["campaign_id"], created.json()["gm_token"]
    gm = {"Authorization": f"Bearer {token}"}
    add = {"command": {"type": "campaign.add_member", "sheet": combatant("aria", 22)}}
    assert (await client.post(f"/campaigns/{campaign}/commands", json=add, headers=gm)).is_success
    body = {"name": f"{name}'s fight", "members": ["aria"]}
    started = await client.post(f"/campaigns/{campaign}/encounters", json=body, headers=gm)
    assert started.status_code == 201, started.text
    return campaign, token, started.json()["encounter_id"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _damage(client: Client, encounter: str, token: str) -> Any:
    command = {"command": {"type": "generic.damage", "target": "aria", "amount": 5}}
    return await client.post(
        f"/encounters/{encounter}/commands", json=command, headers=_bearer(token)
    )


async def test_the_campaign_gm_writes_and_reads_its_encounters(client: Client) -> None:
    campaign, token, encounter = await _campaign_with_an_encounter(client, "Ashes")
    who = (await client.get(f"/encounters/{encounter}/whoami", headers=_bearer(token))).json()
    assert who["role"] == "gm" and who["token_id"] == token.partition(".")[0]

    written = await _damage(client, encounter, token)
    assert written.status_code == 200, written.text
    read = await client.get(f"/encounters/{encounter}", headers=_bearer(token))
    assert read.status_code == 200
    assert read.json()["state"]["game"]["combatants"]["aria"]["hp"] == 17  # 22 - 5
    # GM-only: the encounter's tokens, where the campaign's GM shows as one of its GMs.
    tokens = await client.get(f"/encounters/{encounter}/tokens", headers=_bearer(token))
    assert tokens.status_code == 200, tokens.text
    mine = [t for t in tokens.json()["tokens"] if t["token_id"] == who["token_id"]]
    assert [(t["role"], t["label"]) for t in mine] == [("gm", "campaign GM")]
    # It opens the campaign as before, and a second encounter of it too.
    assert (await client.get(f"/campaigns/{campaign}", headers=_bearer(token))).status_code == 200
    close = {
        "command": {"type": "campaign.close_encounter", "encounter": encounter, "reason": "over"}
    }
    closed = await client.post(
        f"/campaigns/{campaign}/commands", json=close, headers=_bearer(token)
    )
    assert closed.status_code == 200, closed.text
    again = await client.post(
        f"/campaigns/{campaign}/encounters",
        json={"name": "Second", "members": ["aria"]},
        headers=_bearer(token),
    )
    second = again.json()["encounter_id"]
    assert (await _damage(client, second, token)).status_code == 200


async def test_the_campaign_gm_opens_no_other_encounter(client: Client) -> None:
    _, token, _ = await _campaign_with_an_encounter(client, "Ashes")
    _, other_token, elsewhere = await _campaign_with_an_encounter(client, "Embers")
    plain = await create(client, "Plain")
    for encounter in (elsewhere, plain):
        refused = await _damage(client, encounter, token)
        assert refused.status_code == 401, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        read = await client.get(f"/encounters/{encounter}", headers=_bearer(token))
        assert read.status_code == 401
    state = (await client.get(f"/encounters/{elsewhere}", headers=_bearer(other_token))).json()
    assert state["state"]["game"]["combatants"]["aria"]["hp"] == 22  # nothing was written


async def test_the_campaigns_last_gm_token_cannot_be_revoked(client: Client) -> None:
    """The campaign's GM token is its only one: revoking it would lock the GM out of the
    campaign and of every encounter it opens, so it is a 409, as for an encounter's last
    GM token, and nothing is revoked."""
    campaign, token, encounter = await _campaign_with_an_encounter(client, "Ashes")
    token_id = token.partition(".")[0]
    refused = await client.delete(
        f"/campaigns/{campaign}/tokens/{token_id}", headers=_bearer(token)
    )
    assert refused.status_code == 409, refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["type"].endswith("/last-gm-token")
    assert "this campaign's last valid GM token" in refused.json()["detail"]
    assert "lock the GM out" in refused.json()["detail"]
    assert (await client.get(f"/campaigns/{campaign}", headers=_bearer(token))).status_code == 200
    assert (await _damage(client, encounter, token)).status_code == 200
