// The campaign page, opened from the fragment (#c=<campaign id>&t=<GM token>): the party
// with each member's condition drawn as the tracker draws a combatant, the bestiary, the
// encounters started from the campaign with what each carried over (undo, redo, close),
// and the campaign's log newest first.  A campaign has no live stream: the page reads it
// again after each write, and every few seconds while one of its encounters is still
// open, since the carry-over arrives when that fight ends.

import { Api } from "./api.js";
import { wireCampaignArchive } from "./campaign-archive.js";
import { drawEncounterForm, resetCampaignForms, wireCampaignForms } from "./campaign-forms.js";
import { resetCampaignStats, wireCampaignStats } from "./campaign-stats.js";
import { resetCampaignTokens, wireCampaignTokens } from "./campaign-tokens.js";
import { copyButton } from "./invites.js";
import { $, el } from "./dom.js";
import { guarded, setStatus, showProblem } from "./page.js";
import { commandsOf, words } from "./schema.js";
import { bar, conditionBadges, factsOf, measure } from "./tracker.js";

const POLL_MS = 5000;
export const campaign = { api: null, id: null, view: null, info: null, commands: [], sheet: null, timer: null, carried: null };

export function campaignLink(id, token) {
  return `${location.origin}/console/#c=${id}&t=${encodeURIComponent(token)}`;
}

/** An encounter of the campaign opened with the campaign's GM token, which the service
 * copies into every encounter the campaign starts: any browser with the campaign's link
 * opens its tables.  `from` names the campaign, for the table's link back to it. */
export function encounterLink(campaignId, encounterId, token) {
  return `${location.origin}/console/#e=${encounterId}&t=${encodeURIComponent(token)}&from=${campaignId}`;
}

/** Writes of this page: refusals go to its own alert region. */
export function campaignGuarded(action) {
  return guarded(action, "#campaign-problem");
}

export async function openCampaign(id, token) {
  stopCampaign();
  const api = new Api(null, token);
  const view = await api.get(`/campaigns/${id}`);
  const info = await api.get(`/rulesets/${encodeURIComponent(view.ruleset)}`);
  Object.assign(campaign, { api, id, view: null, info, carried: null });
  campaign.commands = commandsOf(info);
  campaign.sheet = campaign.commands.find((c) => c.type === info.campaign?.sheet_command) || null;
  document.body.dataset.role = "gm";
  document.body.dataset.ruleset = view.ruleset;
  $("#start").hidden = true;
  $("#main").hidden = true;
  $("#campaign").hidden = false;
  $("#campaign-title").textContent = `${view.name} · campaign · ${info.title}`;
  const link = campaignLink(id, token);
  $("#campaign-link").value = link;
  $("#campaign-link-copy").replaceChildren(copyButton($("#campaign-link"), "link"));
  $("#campaign-keep-link").open = sessionStorage.getItem("aeon-new-campaign") === id;
  resetCampaignForms();
  resetCampaignStats();
  resetCampaignTokens();
  await readCampaign();
  setStatus(`Game master of the campaign · ${view.name}`);
  campaign.timer = setInterval(() => {
    const waiting = (campaign.view?.encounters || []).some((e) => !e.closed && !e.carried.length);
    // A poll leaves a refusal on screen: it only shows a read that failed.
    if (waiting && document.visibilityState === "visible") readCampaign().catch((error) => showProblem(error, "#campaign-problem"));
  }, POLL_MS);
}

export function stopCampaign() {
  clearInterval(campaign.timer);
  campaign.timer = null;
  $("#campaign").hidden = true;
}

export async function readCampaign() {
  const { api, id } = campaign;
  const [view, log] = await Promise.all([api.get(`/campaigns/${id}`), api.get(`/campaigns/${id}/log`)]);
  if (id !== campaign.id) return; // another campaign was opened meanwhile
  const before = campaign.carried;
  campaign.carried = view.encounters.reduce((n, e) => n + e.carried.length, 0);
  if (before != null && campaign.carried > before) setStatus("Carried over: what the fight left to the party is the campaign's now (see its log).");
  // A redraw keeps the GM's place: the focus, and a reason being typed survive a poll.
  const focused = document.activeElement?.id;
  const reasons = [...document.querySelectorAll("#campaign-encounters input")].map((i) => [i.id, i.value]);
  campaign.view = view;
  $("#campaign-viewing").textContent = `Version ${view.version} · ${view.party.length} in the party · ${view.bestiary.length} in the bestiary`;
  $("#party").replaceChildren(party(view));
  $("#bestiary").replaceChildren(bestiary(view));
  $("#campaign-encounters").replaceChildren(...view.encounters.slice().reverse().map((e) => encounterItem(view, e)));
  $("#campaign-log").replaceChildren(...log.entries.slice().reverse().map((line) =>
    el("li", {}, el("span", { class: "version" }, `v${line.version}`), " ", line.text)));
  drawEncounterForm(view);
  for (const [id, value] of reasons) if (document.getElementById(id)) document.getElementById(id).value = value;
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  document.body.dataset.campaignVersion = String(view.version);
}

/** What a condition holds, in words: "hp 12 · conditions poisoned". */
function summary(condition) {
  if (!condition) return "as the sheet gives it";
  const parts = Object.entries(condition).map(([key, value]) => {
    if (value == null || value === false || (Array.isArray(value) && !value.length)) return null;
    if (value === true) return words(key);
    if (Array.isArray(value)) return `${words(key)} ${value.map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(", ")}`;
    if (typeof value === "object") return Object.keys(value).length ? `${words(key)} ${JSON.stringify(value)}` : null;
    return `${words(key)} ${value}`;
  });
  return parts.filter(Boolean).join(" · ") || "unhurt";
}

/** A member as the tracker reads a combatant: the sheet, brought to its condition. */
function asCombatant(id, sheet, condition) {
  const max = sheet.max_hp == null && sheet.hp != null ? { max_hp: sheet.hp } : {};
  return { ...sheet, ...max, ...(condition || {}), id, name: sheet.name || id };
}

function row(c, extra) {
  // Between fights the measure's limits are the ruleset's defaults (TACTICS's 20 wounds).
  const options = Object.fromEntries((campaign.info.options || []).map((o) => [o.key, o.default]));
  const m = measure(c, { options });
  return el("li", { class: "combatant", "data-id": c.id },
    el("span", { class: "who" }, el("strong", {}, c.name), c.side ? el("span", { class: "side" }, ` ${c.side}`) : null),
    m ? bar(m) : null, factsOf(c), conditionBadges(c), extra);
}

function party(view) {
  if (!view.party.length) return el("p", { class: "hint" }, "No member yet: add one from a sheet below.");
  const names = Object.fromEntries(view.encounters.map((e) => [e.encounter_id, e.name]));
  return el("ul", { class: "combatants campaign-roster", "aria-label": "Party" }, view.party.map((m) => row(
    asCombatant(m.member, m.sheet, m.condition),
    [el("small", {}, `Condition: ${summary(m.condition)}`),
      m.away ? el("span", { class: "badge mark next" }, `in ${names[m.away] || "an encounter"}`) : null],
  )));
}

function bestiary(view) {
  if (!view.bestiary.length) return el("p", { class: "hint" }, "No statblock yet: add one from a sheet below.");
  return el("ul", { class: "combatants campaign-roster", "aria-label": "Bestiary" }, view.bestiary.map((s) => row(
    asCombatant(s.statblock, s.sheet, null),
    s.hit_points ? el("small", {}, `Hit points may be rolled: ${s.hit_points}`) : null,
  )));
}

function carriedLine(view, carried) {
  const names = Object.fromEntries(view.party.map((m) => [m.member, m.sheet.name || m.member]));
  const who = Object.entries(carried.conditions).map(([id, c]) => `${names[id] || id}: ${summary(c)}`);
  return el("li", { class: carried.undone ? "undone" : null },
    `Carried over at version ${carried.version}${carried.undone ? " (undone)" : ""}: `, who.join("; ") || "nothing for the party");
}

function encounterItem(view, encounter) {
  const eid = encounter.encounter_id;
  const link = encounterLink(campaign.id, eid, campaign.api.token);
  const last = encounter.carried[encounter.carried.length - 1];
  const reasonId = `reason-${eid}`;
  // Undo, redo and close each take the GM's reason, which the campaign's log keeps.
  const act = (type) => campaignGuarded(async () => {
    const box = $(`#${CSS.escape(reasonId)}`);
    const reason = box.value.trim();
    if (!reason) throw new Error("give a reason: the campaign's log keeps it");
    await campaign.api.post(`/campaigns/${campaign.id}/commands`, { command: { type, encounter: eid, reason } });
    box.value = "";
    await readCampaign();
  });
  // Carrying over needs no reason: it records the encounter as it stands, at its version.
  const carryNow = () => campaignGuarded(async () => {
    await campaign.api.post(`/campaigns/${campaign.id}/encounters/${eid}/carry-over`, {});
    await readCampaign();
  });
  const buttons = [];
  if (last && !last.undone) buttons.push(el("button", { type: "button", onclick: () => act("campaign.undo_carry_over") }, `Undo the carry-over of ${encounter.name}`));
  if (last && last.undone) buttons.push(el("button", { type: "button", onclick: () => act("campaign.redo_carry_over") }, `Redo the carry-over of ${encounter.name}`));
  if (!last && !encounter.closed) {
    buttons.push(el("button", { type: "button", onclick: carryNow }, `Carry ${encounter.name} over now`));
    buttons.push(el("button", { type: "button", onclick: () => act("campaign.close_encounter") }, `Close ${encounter.name} without carrying over`));
  }
  const state = encounter.closed ? "closed without carrying over" : last ? "carried over" : "under way: its members are away";
  const names = Object.fromEntries(view.party.map((m) => [m.member, m.sheet.name || m.member]));
  const members = encounter.members.map((id) => names[id] || id);
  const monsters = encounter.monsters.map((m) => `${m.name}${m.hit_points != null ? ` (${m.hit_points} hp)` : ""}`);
  return el("li", { class: "encounter", "data-encounter": eid },
    el("strong", {}, encounter.name), ` · ${state}`,
    el("p", {}, el("a", { href: link }, `Open the table of ${encounter.name}`)),
    el("small", {}, `Party: ${members.join(", ") || "none"} · Monsters: ${monsters.join(", ") || "none"}`),
    encounter.carried.length ? el("ul", { class: "carried" }, encounter.carried.map((c) => carriedLine(view, c))) : null,
    buttons.length ? el("div", { class: "answer" },
      el("label", { for: reasonId }, `Reason (${encounter.name})`),
      el("input", { id: reasonId, maxlength: 200, autocomplete: "off" }), buttons) : null);
}

export function wireCampaign() {
  $("#campaign-refresh").addEventListener("click", () => campaignGuarded(readCampaign));
  wireCampaignForms();
  wireCampaignArchive();
  wireCampaignStats();
  wireCampaignTokens();
}
