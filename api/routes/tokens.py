"""Access tokens of one encounter: the GM mints, lists and revokes them."""

from __future__ import annotations

from uuid import UUID

from litestar import delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.http.auth import require_gm
from api.http.problems import problem
from api.routes.base import EncounterRoutes
from api.schemas import Bearer, MintToken, TokenList
from api.state import Services
from events.store import stream_head
from service import tokens
from service.tokens import MintedToken, Viewer


class EncounterTokens(EncounterRoutes):
    """The access tokens of one encounter."""

    tags = ("tokens",)

    @post(
        "/tokens",
        operation_id="mintToken",
        status_code=201,
        summary="Mint a player, co-GM or spectator token",
    )
    async def mint_token(
        self,
        encounter_id: FromPath[UUID],
        data: JSONBody[MintToken],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> MintedToken:
        """A player token acts only for the combatants it is bound to (unit or side ids in
        Aeonis) and sees secret rolls redacted. A spectator token reads exactly what a player
        reads and may follow the live stream, but every write is a 403 for it. The token is
        in this answer only; the service keeps a hash of it. GM only."""
        require_gm(viewer, "mint tokens")
        if data.role == "player" and not data.combatants:
            raise problem(
                422, "unbound-player-token", "a player token must be bound to a combatant"
            )
        if data.role != "player" and data.combatants:
            raise problem(
                422,
                "bound-token",
                f"only a player token is bound to combatants; a {data.role} token is not",
            )
        await stream_head(services.pool, encounter_id)  # 404 for an unknown encounter
        minted = await tokens.mint(
            services.pool,
            encounter_id,
            role=data.role,
            combatants=data.combatants,
            label=data.label,
        )
        services.verified_tokens.remember(minted.token, minted.info.token_id)
        return minted

    @get("/tokens", operation_id="listTokens", summary="List tokens")
    async def list_tokens(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> TokenList:
        """Every token of the encounter with its role, binding and revocation; never a secret.
        GM only."""
        require_gm(viewer, "list tokens")
        return TokenList(tokens=await tokens.list_tokens(services.pool, encounter_id))

    @get("/whoami", operation_id="whoAmI", summary="The presented token's role")
    async def who_am_i(self, viewer: NamedDependency[Viewer]) -> Bearer:
        """The role, token id and bound combatants of the token sent with this request; any
        valid token of the encounter may ask (401 otherwise)."""
        return Bearer(
            role=viewer.role, token_id=viewer.token_id, combatants=sorted(viewer.combatants)
        )

    @delete(
        "/tokens/{token_id:str}",
        operation_id="revokeToken",
        status_code=204,
        summary="Revoke a token",
    )
    async def revoke_token(
        self,
        encounter_id: FromPath[UUID],
        token_id: FromPath[str],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> None:
        """The token is refused (401) from the next request on, on every process (a
        conditional read elsewhere may still get a state-less 304 for up to
        `AEON_READ_CACHE_SECONDS`), and its open live streams end at once. GM only;
        idempotent. 409 for the encounter's last valid GM token: revoking it would lock
        everyone out of running the table."""
        require_gm(viewer, "revoke tokens")
        outcome = await tokens.revoke(services.pool, encounter_id, token_id)
        if outcome == "not_found":
            raise problem(404, "token-not-found", f"This encounter has no token {token_id!r}.")
        if outcome == "last_gm":
            raise problem(
                409,
                "last-gm-token",
                f"{token_id!r} is this encounter's last valid GM token: mint another GM token"
                " before revoking it, or nobody could run the table.",
            )
        if services.live is not None:
            services.live.announce_revoked(encounter_id, token_id)
