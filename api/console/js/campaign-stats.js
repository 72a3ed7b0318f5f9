// The campaign's statistics on its page: the damage meter and the dice of every encounter
// it started, added up (GET /campaigns/{id}/stats), drawn as an encounter's are, now or as
// the campaign stood at a version the GM picks (?at=N: the encounters started by then).

import { campaign, campaignGuarded } from "./campaign.js";
import { $, el } from "./dom.js";
import { stats } from "./render.js";

async function drawCampaignStats() {
  const { api, id } = campaign;
  const at = $("#campaign-stats-at").value.trim();
  const figures = await api.get(`/campaigns/${id}/stats${at ? `?at=${encodeURIComponent(at)}` : ""}`);
  if (id !== campaign.id) return;
  const names = Object.fromEntries((campaign.view?.encounters || []).map((e) => [e.encounter_id, e.name]));
  const counted = figures.encounters.map((e) => `${names[e.encounter_id] || e.encounter_id} at v${e.version}`);
  $("#campaign-stats-counted").textContent = `Campaign version ${figures.version} · ${counted.length ? `counted: ${counted.join(", ")}` : "no encounter started yet"}`;
  $("#campaign-stats").replaceChildren(...stats(figures));
}

export function wireCampaignStats() {
  $("#campaign-stats-section").addEventListener("toggle", () => {
    if ($("#campaign-stats-section").open) campaignGuarded(drawCampaignStats);
  });
  $("#campaign-stats-form").addEventListener("submit", (event) => {
    event.preventDefault();
    campaignGuarded(drawCampaignStats);
  });
}

/** A campaign just opened: no figures of the one before, back to "now". */
export function resetCampaignStats() {
  $("#campaign-stats-at").value = "";
  $("#campaign-stats-counted").textContent = "";
  $("#campaign-stats").replaceChildren();
  $("#campaign-stats-section").open = false;
}
