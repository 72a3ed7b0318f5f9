"""An Idempotency-Key names one request: the same key and body sent to another route is
refused, never answered with the first route's response."""

from __future__ import annotations

from tests.e2e.helpers import Client, create


async def test_a_key_replays_only_on_its_own_route(client: Client) -> None:
    encounter_id = await create(client, "Keys per route")
    key = {"Idempotency-Key": "same-key"}
    revealed = await client.post(f"/encounters/{encounter_id}/dice/reveal", headers=key)
    assert revealed.status_code == 200, revealed.text
    again = await client.post(f"/encounters/{encounter_id}/dice/reveal", headers=key)
    assert again.status_code == 200
    assert again.content == revealed.content

    elsewhere = await client.post(f"/encounters/{encounter_id}/redo", headers=key)
    assert elsewhere.status_code == 422, elsewhere.text
    assert elsewhere.json()["type"].endswith("/idempotency-key-reused")
    state = await client.get(f"/encounters/{encounter_id}")
    assert state.json()["version"] == revealed.json()["version"]
