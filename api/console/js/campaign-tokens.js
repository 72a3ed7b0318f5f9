// The campaign's tokens on its page: every one the campaign has minted, wherever it was
// minted (GET /campaigns/{id}/tokens), with a button to revoke a player's or a
// spectator's, on the campaign and in every encounter it opens, at once.  The campaign's
// own GM token is its only one: the service refuses to revoke it (409 last-gm-token), so
// the page offers no button for it.

import { campaign, campaignGuarded } from "./campaign.js";
import { $, el } from "./dom.js";

function who(t) {
  if (t.role === "gm") return "GM token of the campaign (its only one: it cannot be revoked)";
  const name = t.label ? `${t.label}, ` : "";
  return t.role === "player" ? `Player token (${name}plays ${t.member})` : `Spectator token${t.label ? ` (${t.label})` : ""}`;
}

/** The token list, drawn while its panel is open. */
export async function drawCampaignTokens() {
  if (!$("#campaign-tokens-panel").open) return;
  const { api, id } = campaign;
  const list = await api.get(`/campaigns/${id}/tokens`);
  if (id !== campaign.id) return;
  $("#campaign-tokens").replaceChildren(el("ul", { class: "tokens" }, list.tokens.map((t) => el("li", { "data-token": t.token_id },
    `${who(t)} · ${t.token_id}`,
    t.revoked_at ? el("span", { class: "badge" }, " revoked")
      : t.role === "gm" ? null
        : el("button", { type: "button", class: "small", onclick: () => revoke(t.token_id) }, `Revoke ${t.label || t.token_id}`)))));
}

async function revoke(tokenId) {
  await campaignGuarded(async () => {
    await campaign.api.request("DELETE", `/campaigns/${campaign.id}/tokens/${encodeURIComponent(tokenId)}`);
    await drawCampaignTokens();
  });
}

export function wireCampaignTokens() {
  $("#campaign-tokens-panel").addEventListener("toggle", () => campaignGuarded(drawCampaignTokens));
}

/** A campaign just opened: no tokens of the one before. */
export function resetCampaignTokens() {
  $("#campaign-tokens-panel").open = false;
  $("#campaign-tokens").replaceChildren();
}
