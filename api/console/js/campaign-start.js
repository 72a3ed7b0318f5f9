// Creating a campaign from the start page: a ruleset, a name and the ruleset's carry-over
// options, each with its default and the reason for it (only what the GM changes is
// sent).  The new campaign opens with its GM token and says "keep this link".

import { Api } from "./api.js";
import { $, el } from "./dom.js";
import { optionsForm } from "./options.js";
import { guardedStart } from "./start.js";

let carryOptions = null;

function showCarryOptions(rulesets) {
  const name = $("#campaign-ruleset").value;
  const ruleset = rulesets.find((r) => r.name === name);
  carryOptions = null;
  $("#campaign-options").replaceChildren();
  // GET /rulesets names each ruleset's campaign terms: its carry-over options among them.
  if (!ruleset || !ruleset.campaign) return;
  carryOptions = optionsForm({ title: ruleset.title, options: ruleset.campaign.options }, "carry", "Carry-over options");
  $("#campaign-options").replaceChildren(carryOptions.node);
}

/** Only rulesets that state what carries between fights can run a campaign. */
export function fillCampaignRulesets(all) {
  const rulesets = all.filter((r) => r.campaign);
  const select = $("#campaign-ruleset");
  select.replaceChildren(...rulesets.map((r) => el("option", { value: r.name }, `${r.title} (${r.name})`)));
  select.onchange = () => showCarryOptions(rulesets);
  showCarryOptions(rulesets);
}

export async function createCampaign(event) {
  event.preventDefault();
  const form = event.currentTarget;
  await guardedStart(async () => {
    const key = form.elements.namedItem("service_key").value.trim();
    const created = await new Api(null, key || null).post("/campaigns", {
      ruleset: form.elements.namedItem("ruleset").value,
      name: form.elements.namedItem("name").value,
      options: carryOptions ? carryOptions.read() : {},
    });
    sessionStorage.setItem("aeon-new-campaign", created.campaign_id);
    location.hash = `c=${created.campaign_id}&t=${encodeURIComponent(created.gm_token)}`;
  });
}
