// Moving a campaign whole (docs/campaigns.md, "Export and import"): the campaign page's
// Export downloads its archive (the campaign and every encounter started from it), and
// the start page's "Import a campaign" uploads one, which becomes a new campaign with new
// encounters; it opens with its new GM token, and each encounter's GM link is kept in
// this browser as starting an encounter keeps it.

import { Problem } from "./api.js";
import { campaign, campaignGuarded } from "./campaign.js";
import { $ } from "./dom.js";
import { setStatus } from "./page.js";
import { guardedStart } from "./start.js";

async function refused(response) {
  const text = await response.text();
  let doc = {};
  try { doc = text ? JSON.parse(text) : {}; } catch { doc = { detail: text }; }
  return new Problem(response.status, doc);
}

function exportCampaign() {
  return campaignGuarded(async () => {
    const response = await fetch(`/campaigns/${campaign.id}/export`, {
      headers: { Authorization: `Bearer ${campaign.api.token}` },
    });
    if (!response.ok) throw await refused(response);
    const url = URL.createObjectURL(await response.blob());
    const link = Object.assign(document.createElement("a"), { href: url, download: `campaign-${campaign.id}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    setStatus("Exported: the file holds the campaign and every encounter started from it (no tokens).");
  });
}

async function importCampaign(event) {
  event.preventDefault();
  const form = event.currentTarget;
  await guardedStart(async () => {
    const file = form.elements.namedItem("archive").files[0];
    if (!file) throw new Error("choose the campaign's archive (.jsonl) first");
    const key = form.elements.namedItem("service_key").value.trim();
    const headers = { "Content-Type": "application/jsonl", Accept: "application/json" };
    if (key) headers.Authorization = `Bearer ${key}`;
    const response = await fetch("/campaigns/import", { method: "POST", headers, body: file });
    if (!response.ok) throw await refused(response);
    const imported = await response.json();
    const id = imported.campaign.id;
    const token = imported.campaign.gm_token;
    sessionStorage.setItem("aeon-new-campaign", id);
    form.reset();
    location.hash = `c=${id}&t=${encodeURIComponent(token)}`;
  });
}

export function wireCampaignArchive() {
  $("#campaign-export").addEventListener("click", exportCampaign);
  $("#campaign-import-form").addEventListener("submit", importCampaign);
}
