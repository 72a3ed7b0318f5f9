// The campaign page's forms: a sheet (the ruleset's own add-a-character command, built by
// the encounter's command form) added to the party or the bestiary, and "start an
// encounter" with the members who join and the statblocks with their copies, and the
// invitations of players and spectators.  The new encounter opens with the campaign's GM
// token, which opens every encounter of the campaign, so nothing needs keeping in this
// browser.

import { campaign, campaignGuarded, encounterLink, readCampaign } from "./campaign.js";
import { resetGround, takeGround, wireGround } from "./campaign-ground.js";
import { drawCampaignTokens } from "./campaign-tokens.js";
import { $, el } from "./dom.js";
import { commandForm } from "./forms.js";
import { copyButton } from "./invites.js";
import { optionsForm } from "./options.js";

let sheetForm = null;
let encounterOptions = null;

/** A campaign just opened: its ruleset's sheet and encounter options. */
export function resetCampaignForms() {
  encounterOptions = null;
  $("#campaign-invites").replaceChildren();
  $("#campaign-watchers").replaceChildren();
  resetGround();
  drawSheetForm();
}

function drawSheetForm() {
  const command = campaign.sheet;
  $("#sheet-help").textContent = command
    ? `${command.title}: the sheet as an encounter's GM adds it. ${command.description}`
    : "This ruleset declares no sheet: its campaigns cannot hold characters.";
  sheetForm = command ? commandForm(command, { state: () => ({}), own: null, prefix: "sheet" }) : null;
  $("#sheet-fields").replaceChildren(...(sheetForm ? sheetForm.nodes : []));
  $("#statblock-hit-points").value = "";
}

async function addSheet(event) {
  event.preventDefault();
  const toBestiary = event.submitter && event.submitter.id === "add-statblock";
  await campaignGuarded(async () => {
    if (!sheetForm) throw new Error("this ruleset declares no sheet");
    const sheet = sheetForm.read();
    const hitPoints = $("#statblock-hit-points").value.trim();
    const command = toBestiary
      ? { type: "campaign.add_statblock", sheet, ...(hitPoints ? { hit_points: hitPoints } : {}) }
      : { type: "campaign.add_member", sheet };
    await campaign.api.post(`/campaigns/${campaign.id}/commands`, { command });
    drawSheetForm();
    await readCampaign();
    $("#sheet-fields").querySelector("input, select")?.focus();
  });
}

function memberBoxes(view) {
  const names = Object.fromEntries(view.encounters.map((e) => [e.encounter_id, e.name]));
  const keep = new Set([...document.querySelectorAll("#encounter-members input:checked")].map((i) => i.value));
  return [el("legend", {}, "Party members who join"),
    ...(view.party.length ? [] : [el("span", { class: "hint" }, "No member yet.")]),
    ...view.party.map((m) => {
      const id = `join-${m.member}`.replace(/[^\w-]/g, "_");
      const name = m.sheet.name || m.member;
      return el("span", { class: "check" },
        el("input", { type: "checkbox", id, value: m.member, checked: keep.has(m.member) && !m.away, disabled: Boolean(m.away) }),
        el("label", { for: id }, m.away ? `${name} (away: in ${names[m.away] || "an encounter"})` : name));
    })];
}

function monsterRows(view) {
  const keep = Object.fromEntries([...document.querySelectorAll("#encounter-monsters [data-statblock]")]
    .map((r) => [r.dataset.statblock, [r.querySelector("input").value, r.querySelector("select").value]]));
  return [el("legend", {}, "Monsters from the bestiary"),
    ...(view.bestiary.length ? [] : [el("span", { class: "hint" }, "No statblock yet.")]),
    ...view.bestiary.map((s) => {
      const id = `copies-${s.statblock}`.replace(/[^\w-]/g, "_");
      const name = s.sheet.name || s.statblock;
      const [count, hp] = keep[s.statblock] || ["0", "fixed"];
      const select = el("select", { id: `${id}-hp` },
        el("option", { value: "fixed" }, "fixed, as the sheet"),
        el("option", { value: "rolled", disabled: !s.hit_points }, s.hit_points ? `rolled, ${s.hit_points} each` : "rolled (no notation)"));
      select.value = hp;
      return el("div", { class: "monster", "data-statblock": s.statblock },
        el("label", { for: id }, `Copies of ${name}`),
        el("input", { id, type: "number", min: 0, max: 50, step: 1, value: count, inputmode: "numeric" }),
        el("label", { for: `${id}-hp` }, `Hit points of ${name}`), select);
    })];
}

/** A player's token bound to a member, shown once: with a link to the encounter the
 * member fights in now, if any. */
async function invite(event) {
  event.preventDefault();
  await campaignGuarded(async () => {
    const member = $("#invite-member").value;
    const label = $("#invite-label").value.trim();
    const minted = await campaign.api.post(`/campaigns/${campaign.id}/tokens`, { member, ...(label ? { label } : {}) });
    const away = campaign.view.party.find((m) => m.member === member)?.away;
    const n = $("#campaign-invites").children.length + 1;
    const box = el("input", { id: `campaign-invite-${n}`, readonly: true, value: minted.token });
    const link = away ? `${location.origin}/console/#e=${away}&t=${encodeURIComponent(minted.token)}` : null;
    $("#campaign-invites").prepend(el("li", {},
      el("label", { for: box.id }, `Token of ${label || "the player"} for ${member}`), box, copyButton(box, "token"),
      link ? el("p", {}, el("a", { href: link, target: "_blank", rel: "noopener", class: "campaign-invite-link" }, `Link to the encounter ${member} fights in now`)) : null));
    $("#invite-label").value = "";
    await drawCampaignTokens();
  });
}

/** A spectator's token, shown once: with a copy link to each encounter under way (every
 * later one opens with the same token). */
async function inviteSpectator(event) {
  event.preventDefault();
  await campaignGuarded(async () => {
    const label = $("#watch-label").value.trim();
    const minted = await campaign.api.post(`/campaigns/${campaign.id}/tokens`, { role: "spectator", ...(label ? { label } : {}) });
    const n = $("#campaign-watchers").children.length + 1;
    const box = el("input", { id: `campaign-watcher-${n}`, readonly: true, value: minted.token });
    const links = campaign.view.encounters.filter((e) => !e.closed && !e.carried.length).map((e, i) => {
      const link = el("input", { id: `campaign-watcher-${n}-${i}`, readonly: true, value: `${location.origin}/console/#e=${e.encounter_id}&t=${encodeURIComponent(minted.token)}` });
      return el("p", {}, el("label", { for: link.id }, `Link to ${e.name}`), link, copyButton(link, "link"));
    });
    $("#campaign-watchers").prepend(el("li", {},
      el("label", { for: box.id }, `Spectator token of ${label || "a spectator"}`), box, copyButton(box, "token"), ...links));
    $("#watch-label").value = "";
    await drawCampaignTokens();
  });
}

/** The form's members and monsters follow the campaign; what the GM chose stays. */
export function drawEncounterForm(view) {
  const chosen = $("#invite-member").value;
  $("#invite-member").replaceChildren(...view.party.map((m) => el("option", { value: m.member }, m.sheet.name || m.member)));
  if (view.party.some((m) => m.member === chosen)) $("#invite-member").value = chosen;
  $("#encounter-members").replaceChildren(...memberBoxes(view));
  $("#encounter-monsters").replaceChildren(...monsterRows(view));
  if (!encounterOptions) {
    encounterOptions = optionsForm(campaign.info, "enc-opt");
    $("#encounter-options").replaceChildren(encounterOptions.node);
  }
}

async function startEncounter(event) {
  event.preventDefault();
  const form = event.currentTarget;
  await campaignGuarded(async () => {
    const members = [...form.querySelectorAll("#encounter-members input:checked")].map((i) => i.value);
    const monsters = [...form.querySelectorAll("#encounter-monsters [data-statblock]")]
      .map((r) => ({ statblock: r.dataset.statblock, count: Number(r.querySelector("input").value || 0), hit_points: r.querySelector("select").value }))
      .filter((m) => m.count > 0);
    const created = await campaign.api.post(`/campaigns/${campaign.id}/encounters`, {
      name: form.elements.namedItem("name").value,
      ground: takeGround(),
      members,
      monsters,
      options: encounterOptions ? encounterOptions.read() : {},
      npc_health: form.elements.namedItem("npc_health").value,
      allow_player_dice: form.elements.namedItem("allow_player_dice").checked,
    });
    takeGround(true);
    const eid = created.encounter_id;
    const link = encounterLink(campaign.id, eid, campaign.api.token);
    sessionStorage.setItem("aeon-new-table", eid);
    form.reset();
    location.hash = new URL(link).hash;
  });
}

export function wireCampaignForms() {
  $("#sheet-form").addEventListener("submit", addSheet);
  $("#encounter-form").addEventListener("submit", startEncounter);
  $("#campaign-invite-form").addEventListener("submit", invite);
  $("#campaign-watch-form").addEventListener("submit", inviteSpectator);
  wireGround();
}
