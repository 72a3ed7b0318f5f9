// The table console: wires the page to the public API.  A table is opened from the page's
// fragment (#e=<encounter id>&t=<token>: a fragment never reaches a server's logs), then
// followed over the live stream; the version slider reads any past version with ?at=N.

import { Api } from "./api.js";
import { settingInitiative } from "./actions.js";
import { buildPicker, openCommand, syncActions, wireCommands } from "./commands.js";
import { $ } from "./dom.js";
import { available, epochs, verifyRoll } from "./fairness.js";
import { follow } from "./live.js";
import { applyOverlay } from "./overlay.js";
import { ctx, guarded, isGm, setStatus } from "./page.js";
import { badge, ledger, log, requests, stats } from "./render.js";
import { commandsOf } from "./schema.js";
import { drawHistory, updateSlider, wireTimeline } from "./timeline.js";
import { trackerRows } from "./tracker.js";
import { rulesetView } from "./views.js";
import { create, fragment, guardedStart, join, keepLink, loadRulesets } from "./start.js";
import { wireInvites } from "./invites.js";
import { campaignLink, openCampaign, stopCampaign, wireCampaign } from "./campaign.js";
import { createCampaign, fillCampaignRulesets } from "./campaign-start.js";

function roleName() {
  const who = ctx.who;
  if (!who) return "";
  if (who.role === "player") return `Player of ${who.combatants.join(", ")}`;
  if (who.role === "spectator") return "Spectator";
  return "Game master";
}

async function open() {
  const { encounter, campaign, from, token } = fragment();
  if (campaign && token) {
    if (ctx.stop) ctx.stop();
    ctx.api = null;
    await guardedStart(() => openCampaign(campaign, token));
    return;
  }
  stopCampaign();
  if (!encounter || !token) {
    if (ctx.stop) ctx.stop();
    ctx.api = null;
    $("#start").hidden = false;
    $("#main").hidden = true;
    return;
  }
  if (ctx.api && ctx.api.encounterId === encounter && ctx.api.token === token) {
    $("#main").hidden = false;
    return;
  }
  if (ctx.stop) ctx.stop();
  await guardedStart(async () => {
    const api = new Api(encounter, token);
    const who = await api.get(api.path("/whoami"));
    const view = await api.get(api.path(""));
    const info = await api.get(`/rulesets/${encodeURIComponent(view.ruleset)}`);
    const phone = matchMedia("(max-width: 40rem)").matches;
    Object.assign(ctx, {
      api, who, at: null, head: view.version, commands: commandsOf(info), game: view.state.game || {}, picked: null,
      fullLog: [], fullRolls: [], logHead: 0, events: null, eventsHead: 0, chain: null, verdicts: new Map(),
      // A phone shows fewer entries at first, so a player's page stays short.
      logShown: phone ? PAGE / 2 : PAGE, rollsShown: phone ? 5 : PAGE, rewrites: 0, rewritesRead: 0,
    });
    document.body.dataset.role = who.role === "service" ? "gm" : who.role;
    document.body.dataset.ruleset = view.ruleset;
    $("#start").hidden = true;
    $("#main").hidden = false;
    $("#encounter-title").textContent = `${view.state.name} · ${info.title}`;
    const entries = applyOverlay(new URLSearchParams(location.hash.slice(1)));
    if (entries) ctx.logShown = entries;
    keepLink();
    // A table opened from its campaign's page (with the campaign's GM token) links back.
    const back = isGm() && from ? campaignLink(from, token) : null;
    $("#campaign-return").hidden = !back;
    if (back) $("#campaign-return-link").href = back;
    buildPicker();
    await refresh();
    ctx.stop = follow(api, view.version, onLiveEvent, (s) => setStatus(`${roleName()} · ${s}`));
  });
}

// --- reading ----------------------------------------------------------------------------
// After the first load a command costs each client only what is new: the state, and the
// log entries and rolls after the last version the page has (the events themselves come
// over the live stream).  Only what rewrites earlier entries (an undo or redo strikes
// entries through, a reveal unseals rolls) reads the log and the ledger again.

const REWRITES = /^(history\.|dice\.(seed|rolls)_revealed)/;
const PAGE = 20;

function onLiveEvent(event) {
  ctx.head = Math.max(ctx.head, event.stream_version);
  // For tests and curious developers: what the stream delivered, and how many.
  document.body.dataset.lastEvent = String(event.stream_version);
  document.body.dataset.received = String(Number(document.body.dataset.received || 0) + 1);
  if (ctx.events && event.stream_version > ctx.eventsHead) {
    ctx.events.push(event);
    ctx.eventsHead = event.stream_version;
  }
  if (REWRITES.test(event.type)) ctx.rewrites += 1;
  if (ctx.at == null) scheduleRefresh();
  else updateSlider();
}

function scheduleRefresh() {
  clearTimeout(ctx.timer);
  ctx.timer = setTimeout(() => guarded(refresh), 60);
}

function pick(id) {
  ctx.picked = ctx.picked === id ? null : id;
  drawTracker(ctx.view);
  syncActions();
  const panel = $("#act-on button");
  if (panel) panel.focus();
}

function drawTracker(view) {
  const onPick = ctx.who.role === "spectator" ? null : pick;
  const answer = isGm() && ctx.at == null ? answerRequest : null;
  const setting = isGm() && ctx.at == null ? settingInitiative(ctx.commands) : null;
  const onInitiative = setting ? (id) => openCommand(setting.command, setting.field, setting.value(id)) : null;
  $("#tracker").replaceChildren(
    ...trackerRows(view.state.game || {}, { onPick, picked: ctx.picked, onInitiative }),
    ...[rulesetView(view.ruleset, view.state.game || {}), requests(view.state, answer)].filter(Boolean),
  );
}

function drawLog() {
  const onMore = () => { ctx.logShown += PAGE; drawLog(); };
  $("#log").replaceChildren(...log(ctx.shownLog, { shown: ctx.logShown, onMore }).filter(Boolean));
}

function drawLedger() {
  const onMore = () => { ctx.rollsShown += PAGE; drawLedger(); ctx.reload(); };
  const revealable = isGm() && ctx.at == null ? ctx.secretRolls : new Set();
  $("#ledger").replaceChildren(...ledger(ctx.shownRolls, { verdicts: ctx.verdicts, revealable, onReveal: revealRoll, shown: ctx.rollsShown, onMore }).filter(Boolean));
}

/** Everything at the version shown: on opening, looking back, or after a rewrite. */
async function readAll(at) {
  const { api } = ctx;
  const [view, entries, rolls] = await Promise.all([
    api.get(api.path("", at)),
    api.pages("/log", "entries", at),
    api.pages("/rolls", "rolls", at),
  ]);
  return { view, entries, rolls };
}

/** Only what is new since the page's last version, at the live head. */
async function readNew() {
  const { api } = ctx;
  const after = ctx.logHead;
  const [view, entries, rolls] = await Promise.all([
    api.get(api.path("")),
    api.pages("/log", "entries", null, after),
    api.pages("/rolls", "rolls", null, after),
  ]);
  const known = new Set(ctx.fullRolls.map((r) => r.roll_id));
  return {
    view,
    entries: [...ctx.fullLog, ...entries.filter((e) => e.version > after)],
    rolls: [...ctx.fullRolls, ...rolls.filter((r) => !known.has(r.roll_id))],
  };
}

async function refresh() {
  const { at } = ctx;
  const generation = ++ctx.generation;
  // A rewrite is caught up only by a whole read that started after it and was drawn.
  const rewrites = ctx.rewrites;
  const whole = at != null || rewrites > ctx.rewritesRead || !ctx.fullLog.length;
  const { view, entries, rolls } = whole ? await readAll(at) : await readNew();
  if (generation !== ctx.generation) return; // a newer refresh is under way
  if (whole && at == null) ctx.rewritesRead = rewrites;
  if (at == null) {
    ctx.head = Math.max(ctx.head, view.version);
    ctx.fullLog = entries;
    ctx.fullRolls = rolls;
    ctx.logHead = Math.max(0, ...entries.map((e) => e.version));
    ctx.secretRolls = new Set(view.state.secret_rolls || []);
  }
  ctx.view = view;
  ctx.game = view.state.game || {};
  ctx.shownLog = entries;
  ctx.shownRolls = rolls;
  drawTracker(view);
  drawLog();
  drawLedger();
  $("#viewing").textContent = at == null ? `Live, version ${view.version}` : `Looking back: version ${at} of ${ctx.head}`;
  document.body.classList.toggle("past", at != null);
  updateSlider();
  drawHistory();
  syncActions();
  document.body.dataset.shown = String(view.version);
  if ($("#stats-section").open) await drawStats();
  await verifyAll(rolls, generation, whole);
}

async function drawStats() {
  const figures = await ctx.api.get(ctx.api.path("/stats", ctx.at));
  $("#stats").replaceChildren(...stats(figures));
}

/** The fairness badges: seeds from the events (read once, then kept from the stream),
 * each roll recomputed once its verdict can no longer change. */
async function verifyAll(rolls, generation, whole) {
  const { api } = ctx;
  if (!ctx.events) {
    ctx.events = await api.pages("/events", "events");
    ctx.eventsHead = Math.max(0, ...ctx.events.map((e) => e.stream_version));
  }
  if (whole || !ctx.chain) ctx.chain = (await api.get(api.path("/verify"))).chain;
  if (generation !== ctx.generation) return;
  const chain = ctx.chain;
  $("#chain").textContent = chain.ok
    ? `Hash chain intact: ${chain.events_checked} events checked up to version ${chain.head_version}.`
    : `Hash chain BROKEN at version ${chain.first_broken?.version ?? "?"}.`;
  const seeds = epochs(ctx.events);
  for (const roll of rolls.slice(-ctx.rollsShown)) {
    const key = `${roll.roll_id}:${roll.redacted ? "sealed" : "open"}`;
    let verdict = ctx.verdicts.get(key);
    if (!verdict) {
      verdict = available() || roll.source !== "server" ? await verifyRoll(roll, seeds) : "unavailable";
      if (["verified", "mismatch", "manual"].includes(verdict)) ctx.verdicts.set(key, verdict);
    }
    if (generation !== ctx.generation) return;
    const cell = document.querySelector(`tr[data-roll="${CSS.escape(roll.roll_id)}"] .badge`);
    if (cell) cell.replaceWith(badge(verdict));
  }
  document.body.dataset.verified = String(generation);
}

// --- the GM's other writes ------------------------------------------------------------

function gmWrite(sub, body = {}) {
  return guarded(async () => {
    await ctx.api.write(sub, body);
    ctx.at = null;
    scheduleRefresh();
  });
}

function answerRequest(requestId, action, text) {
  if (action === "clear") return gmWrite("/requests/clear", text ? { reason: text } : {});
  const at = `/requests/${encodeURIComponent(requestId)}`;
  if (action === "allow") return gmWrite(`${at}/approve`, {});
  if (action === "amend") return guarded(async () => gmWrite(`${at}/amend`, JSON.parse(text)));
  return gmWrite(`${at}/refuse`, { reason: text || "refused" });
}

function revealRoll(rollId) {
  return gmWrite("/rolls/reveal", { roll_ids: [rollId] });
}

async function fork() {
  await guarded(async () => {
    const body = ctx.at == null ? {} : { at_version: ctx.at };
    const forked = await ctx.api.write("/fork", body);
    location.hash = `e=${forked.encounter_id}&t=${encodeURIComponent(forked.gm_token)}`;
  });
}

// --- start ------------------------------------------------------------------------------

function wire() {
  ctx.refresh = scheduleRefresh;
  ctx.reload = () => guarded(refresh);
  $("#create-form").addEventListener("submit", create);
  $("#join-form").addEventListener("submit", join);
  $("#campaign-create-form").addEventListener("submit", createCampaign);
  wireCampaign();
  $("#reveal-seed").addEventListener("click", () => gmWrite("/dice/reveal", {}));
  $("#fork").addEventListener("click", fork);
  $("#stats-section").addEventListener("toggle", () => {
    if ($("#stats-section").open) guarded(drawStats);
  });
  // The skip link moves focus without touching the fragment, which holds the table.
  $(".skip").addEventListener("click", (event) => {
    event.preventDefault();
    const target = ["#campaign", "#main"].map($).find((m) => !m.hidden) || $("#start");
    target.focus();
  });
  wireCommands();
  wireTimeline();
  wireInvites();
  window.addEventListener("hashchange", open);
}

wire();
loadRulesets().then(fillCampaignRulesets).catch((error) => setStatus(`Could not list rulesets: ${error.message}`));
open();
