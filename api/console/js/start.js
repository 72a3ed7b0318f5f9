// Before a table is open: the join and create forms (with each ruleset's options), and
// once it is, the GM's "keep this link" (the link is the only copy of the GM token).

import { Api } from "./api.js";
import { $, el } from "./dom.js";
import { optionsForm } from "./options.js";
import { ctx, isGm, linkFor, setStatus } from "./page.js";

const start = { rulesets: [], options: null };

export function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { encounter: params.get("e"), campaign: params.get("c"), from: params.get("from"), token: params.get("t") };
}

function showOptions() {
  const ruleset = start.rulesets.find((r) => r.name === $("#create-ruleset").value);
  start.options = ruleset ? optionsForm(ruleset) : null;
  $("#create-options").replaceChildren(...(start.options ? [start.options.node] : []));
}

export async function loadRulesets() {
  const select = $("#create-ruleset");
  start.rulesets = await new Api(null, null).get("/rulesets");
  select.replaceChildren(...start.rulesets.map((r) => el("option", { value: r.name }, `${r.title} (${r.name})`)));
  select.onchange = showOptions;
  showOptions();
  return start.rulesets;
}

export async function create(event) {
  event.preventDefault();
  const form = event.currentTarget;
  await guardedStart(async () => {
    const key = form.elements.namedItem("service_key").value.trim();
    const api = new Api(null, key || null);
    const created = await api.request("POST", "/encounters", {
      ruleset: form.elements.namedItem("ruleset").value,
      name: form.elements.namedItem("name").value,
      npc_health: form.elements.namedItem("npc_health").value,
      allow_player_dice: form.elements.namedItem("allow_player_dice").checked,
      options: start.options ? start.options.read() : {},
    });
    sessionStorage.setItem("aeon-new-table", created.encounter_id);
    location.hash = `e=${created.encounter_id}&t=${encodeURIComponent(created.gm_token)}`;
  });
}

export function join(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const link = form.elements.namedItem("link").value.trim();
  if (link) {
    try {
      location.hash = new URL(link).hash;
    } catch {
      setStatus("That link is not a console link: paste it whole, or the id and token below.");
    }
    return;
  }
  const encounter = form.elements.namedItem("encounter").value.trim();
  const token = form.elements.namedItem("token").value.trim();
  location.hash = `e=${encounter}&t=${encodeURIComponent(token)}`;
}

export async function guardedStart(action) {
  try {
    await action();
  } catch (error) {
    setStatus(`Could not open the table: ${error.message}`);
  }
}

/** The GM's link is the only copy of their token: say so, with the link to keep. */
export function keepLink() {
  const fresh = sessionStorage.getItem("aeon-new-table") === ctx.api.encounterId;
  const box = $("#keep-link");
  box.hidden = !isGm();
  if (!isGm()) return;
  const link = linkFor(ctx.api.encounterId, ctx.api.token);
  $("#gm-link").value = link;
  box.open = fresh;
}

