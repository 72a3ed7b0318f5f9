"""A campaign's tokens: the GM mints a player's or a spectator's, lists them all and
revokes one, on the campaign and in every encounter it was copied into
(docs/campaigns.md).  Thin: the tokens are service/campaign_store/tokens.py's."""

from __future__ import annotations

from uuid import UUID

from litestar import delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.campaigns.loaded import loaded, not_found
from api.campaigns.schemas import (
    CampaignToken,
    CampaignTokenBody,
    CampaignTokenInfo,
    CampaignTokens,
)
from api.http.auth import require_gm
from api.http.problems import problem
from api.routes.base import CampaignRoutes
from api.state import Services
from events.campaign_access import campaign_tokens_of
from events.errors import StreamNotFound
from service.campaign_store.tokens import (
    mint_player_token,
    mint_spectator_token,
    revoke_token,
)
from service.ruleset import RuleViolation
from service.tokens import Viewer


class CampaignTokenRoutes(CampaignRoutes):
    """The tokens of one campaign. GM only."""

    @post(
        "/tokens",
        operation_id="mintCampaignToken",
        status_code=201,
        summary="A player's or a spectator's token",
    )
    async def mint_token(
        self,
        campaign_id: FromPath[UUID],
        data: JSONBody[CampaignTokenBody],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> CampaignToken:
        """A player's token bound to a party member: it opens that character in every
        encounter of the campaign (the one the member fights in now, and every later
        one), with the rights of an encounter's player token. A spectator's token
        (`"role": "spectator"`, no member) reads the campaign as players do and is an
        encounter spectator token in every encounter under way and every later one.
        GM only."""
        require_gm(viewer, "mint the campaign's tokens")
        if data.role == "spectator":
            if data.member is not None:
                why = "only a player token is bound to a member; a spectator token is not"
                raise problem(422, "bound-token", why)
            try:
                token = await mint_spectator_token(services.pool, campaign_id, data.label)
            except StreamNotFound:
                raise not_found(campaign_id) from None
        else:
            if data.member is None:
                raise problem(
                    422, "unbound-player-token", "a player token must be bound to a member"
                )
            _, campaign = await loaded(services, campaign_id)
            member = campaign.members.get(data.member)
            if member is None:
                raise RuleViolation(f"{data.member} is not a member of the party")
            token = await mint_player_token(
                services.pool, campaign_id, data.member, member.away, data.label
            )
        return CampaignToken(
            token=token,
            token_id=token.partition(".")[0],
            role=data.role,
            member=data.member,
            label=data.label,
        )

    @delete(
        "/tokens/{token_id:str}",
        operation_id="revokeCampaignToken",
        status_code=204,
        summary="Revoke a player's or a spectator's token",
    )
    async def revoke_token(
        self,
        campaign_id: FromPath[UUID],
        token_id: FromPath[str],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> None:
        """Revokes the token on the campaign and in every encounter of the campaign it
        opened, at once, ending its open live streams there. GM only. 409 for the
        campaign's GM token: it is its only one (a campaign mints no other), and revoking
        it would lock the GM out."""
        require_gm(viewer, "revoke the campaign's tokens")
        outcome, encounters = await revoke_token(services.pool, campaign_id, token_id)
        if outcome == "not_found":
            raise problem(404, "token-not-found", f"The campaign has no token {token_id}.")
        if outcome == "last_gm":
            raise problem(
                409,
                "last-gm-token",
                f"{token_id!r} is this campaign's last valid GM token: revoking it would"
                " lock the GM out, and nobody could run the campaign.",
            )
        if services.live is not None:
            for encounter_id in encounters:
                services.live.announce_revoked(encounter_id, token_id)

    @get("/tokens", operation_id="listCampaignTokens", summary="The campaign's tokens")
    async def list_tokens(
        self,
        campaign_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> CampaignTokens:
        """Every token of the campaign, oldest first, with its role, member, label and
        revocation, so the GM can revoke one minted anywhere; never a secret. GM only."""
        require_gm(viewer, "list the campaign's tokens")
        rows = await campaign_tokens_of(services.pool, campaign_id)
        if not rows:  # every campaign has its GM token: the service key named none
            raise not_found(campaign_id)
        return CampaignTokens(tokens=[CampaignTokenInfo(**dict(r)) for r in rows])
