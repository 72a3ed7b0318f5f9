// The table console: wires the page to the public API.  A table is opened from the page's
// fragment (#e=<encounter id>&t=<token>: a fragment never reaches a server's logs), then
// followed over the live stream; the version slider reads any past version with ?at=N.

import { Api, Problem } from "./api.js";
import { $, el } from "./dom.js";
import { available, epochs, verifyRoll } from "./fairness.js";
import { commandsOf, fieldsFor, parseDice, readCommand } from "./forms.js";
import { follow } from "./live.js";
import { badge, ledger, log, stats, tracker } from "./render.js";

const ctx = {
  api: null, who: null, commands: [], head: 0, at: null, stop: null,
  fullLog: [], secretRolls: new Set(), timer: null, generation: 0,
};

function setStatus(text) {
  $("#status").textContent = text;
}

function showProblem(error) {
  const box = $("#problem");
  box.replaceChildren();
  if (!error) return;
  const title = error instanceof Problem ? `Refused (${error.status})` : "Not sent";
  box.append(el("strong", {}, `${title}: `), el("span", { class: "detail" }, error.message));
  const errors = error instanceof Problem ? error.doc.errors : null;
  if (Array.isArray(errors)) box.append(el("ul", {}, errors.map((e) => el("li", {}, words(e)))));
}

function words(e) {
  return typeof e === "string" ? e : [e.loc, e.msg, e.message, e.detail].filter(Boolean).join(": ") || JSON.stringify(e);
}

async function guarded(action) {
  showProblem(null);
  try {
    await action();
  } catch (error) {
    showProblem(error);
  }
}

// --- opening a table ------------------------------------------------------------------

function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { encounter: params.get("e"), token: params.get("t") };
}

function linkFor(encounterId, token) {
  return `${location.origin}/console/#e=${encounterId}&t=${encodeURIComponent(token)}`;
}

async function loadRulesets() {
  const select = $("#create-ruleset");
  const rulesets = await new Api(null, null).get("/rulesets");
  select.replaceChildren(...rulesets.map((r) => el("option", { value: r.name }, `${r.title} (${r.name})`)));
}

async function create(event) {
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
    });
    location.hash = `e=${created.encounter_id}&t=${encodeURIComponent(created.gm_token)}`;
  });
}

function join(event) {
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

async function guardedStart(action) {
  try {
    await action();
  } catch (error) {
    setStatus(`Could not open the table: ${error.message}`);
  }
}

async function open() {
  const { encounter, token } = fragment();
  if (ctx.stop) ctx.stop();
  if (!encounter || !token) {
    $("#start").hidden = false;
    $("#main").hidden = true;
    return;
  }
  await guardedStart(async () => {
    const api = new Api(encounter, token);
    const who = await api.get(api.path("/whoami"));
    const view = await api.get(api.path(""));
    const info = await api.get(`/rulesets/${encodeURIComponent(view.ruleset)}`);
    Object.assign(ctx, { api, who, at: null, head: view.version, commands: commandsOf(info) });
    document.body.dataset.role = who.role === "service" ? "gm" : who.role;
    $("#start").hidden = true;
    $("#main").hidden = false;
    $("#encounter-title").textContent = `${view.state.name} · ${info.title}`;
    buildCommandPicker();
    await refresh();
    ctx.stop = follow(api, view.version, onLiveEvent, (s) => setStatus(`${roleName()} · ${s}`));
  });
}

function roleName() {
  const who = ctx.who;
  if (!who) return "";
  if (who.role === "player") return `Player of ${who.combatants.join(", ")}`;
  if (who.role === "spectator") return "Spectator";
  return "Game master";
}

// --- reading ----------------------------------------------------------------------------

function onLiveEvent(event) {
  ctx.head = Math.max(ctx.head, event.stream_version);
  // For tests and curious developers: what the stream delivered, and how many.
  document.body.dataset.lastEvent = String(event.stream_version);
  document.body.dataset.received = String(Number(document.body.dataset.received || 0) + 1);
  if (ctx.at == null) scheduleRefresh();
  else updateSlider();
}

function scheduleRefresh() {
  clearTimeout(ctx.timer);
  ctx.timer = setTimeout(() => guarded(refresh), 60);
}

async function refresh() {
  const { api, at } = ctx;
  const generation = ++ctx.generation;
  const [view, entries, rolls, figures] = await Promise.all([
    api.get(api.path("", at)),
    api.pages("/log", "entries", at),
    api.pages("/rolls", "rolls", at),
    api.get(api.path("/stats", at)),
  ]);
  if (generation !== ctx.generation) return; // a newer refresh is under way
  if (at == null) {
    ctx.head = Math.max(ctx.head, view.version);
    ctx.fullLog = entries;
    ctx.secretRolls = new Set(view.state.secret_rolls || []);
  }
  const answer = ctx.who.role === "gm" || ctx.who.role === "service" ? answerRequest : null;
  $("#tracker").replaceChildren(...tracker(view.state, at == null ? answer : null).filter(Boolean));
  $("#log").replaceChildren(log(entries));
  const verdicts = new Map();
  const revealable = ctx.who.role === "gm" || ctx.who.role === "service" ? ctx.secretRolls : new Set();
  $("#ledger").replaceChildren(ledger(rolls, { verdicts, revealable, onReveal: revealRoll }));
  $("#stats").replaceChildren(...stats(figures));
  $("#viewing").textContent = at == null ? `Live, version ${view.version}` : `Looking back: version ${at} of ${ctx.head}`;
  document.body.classList.toggle("past", at != null);
  updateSlider();
  await verifyAll(rolls, generation);
}

async function verifyAll(rolls, generation) {
  const { api } = ctx;
  const [events, report] = await Promise.all([api.pages("/events", "events"), api.get(api.path("/verify"))]);
  if (generation !== ctx.generation) return;
  const chain = report.chain;
  $("#chain").textContent = chain.ok
    ? `Hash chain intact: ${chain.events_checked} events checked up to version ${chain.head_version}.`
    : `Hash chain BROKEN at version ${chain.first_broken?.version ?? "?"}.`;
  const seeds = epochs(events);
  for (const roll of rolls) {
    const verdict = available() || roll.source !== "server" ? await verifyRoll(roll, seeds) : "unavailable";
    if (generation !== ctx.generation) return;
    const cell = document.querySelector(`tr[data-roll="${CSS.escape(roll.roll_id)}"] .badge`);
    if (cell) cell.replaceWith(badge(verdict));
  }
  document.body.dataset.verified = String(generation);
}

// --- time travel ----------------------------------------------------------------------

function roundAt(version) {
  let round = null;
  for (const entry of ctx.fullLog) if (entry.version <= version) round = entry.round ?? round;
  return round;
}

function labelSlider(version) {
  const round = roundAt(version);
  const text = `Version ${version} of ${ctx.head}${round != null ? ` · round ${round}` : " · before round 1"}`;
  $("#version-label").textContent = text;
  $("#version-slider").setAttribute("aria-valuetext", text);
}

function updateSlider() {
  const slider = $("#version-slider");
  const shown = ctx.at ?? ctx.head;
  slider.max = String(ctx.head);
  slider.value = String(shown);
  labelSlider(shown);
  $("#undo-to").disabled = ctx.at == null;
}

function showVersion(version) {
  ctx.at = version >= ctx.head ? null : Math.max(1, version);
  guarded(refresh);
}

function stepRound(delta) {
  const shown = ctx.at ?? ctx.head;
  const current = roundAt(shown);
  const target = (current ?? 0) + delta;
  const inRound = ctx.fullLog.filter((e) => e.round === target && !e.undone);
  if (!inRound.length) return showVersion(delta > 0 ? ctx.head : shown);
  showVersion(Math.max(...inRound.map((e) => e.version)));
}

// --- writing --------------------------------------------------------------------------

function buildCommandPicker() {
  const select = $("#command-type");
  select.replaceChildren(...ctx.commands.map((c) => el("option", { value: c.type }, c.type)));
  // A player starts on a command that uses the sheet (an attack with a weapon on it).
  const fromSheet = ctx.commands.find((c) => c.fields.some((f) => f.name === "using"));
  if (ctx.who.role === "player" && fromSheet) select.value = fromSheet.type;
  select.onchange = showCommandFields;
  showCommandFields();
}

function currentCommand() {
  return ctx.commands.find((c) => c.type === $("#command-type").value);
}

function showCommandFields() {
  const command = currentCommand();
  $("#command-help").textContent = command ? command.description : "";
  const player = ctx.who.role === "player" ? ctx.who.combatants : null;
  $("#command-fields").replaceChildren(...(command ? fieldsFor(command, player) : []));
}

async function sendCommand(event) {
  event.preventDefault();
  await guarded(async () => {
    const command = currentCommand();
    const body = { command: readCommand(command, event.currentTarget) };
    const dice = parseDice($("#manual-dice").value);
    if (dice) body.manual_dice = dice;
    if ($("#hidden-roll").checked) body.hidden = true;
    if (event.submitter && event.submitter.id === "ask-gm") {
      const note = $("#request-note").value.trim();
      if (note) body.note = note;
      delete body.hidden;
      await ctx.api.write("/requests", body);
      $("#request-note").value = "";
    } else {
      await ctx.api.write("/commands", body);
    }
    $("#manual-dice").value = "";
    $("#hidden-roll").checked = false;
    scheduleRefresh();
  });
}

function gmWrite(sub, body = {}) {
  return guarded(async () => {
    await ctx.api.write(sub, body);
    ctx.at = null;
    scheduleRefresh();
  });
}

function answerRequest(requestId, action, text) {
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

async function mint(event) {
  event.preventDefault();
  await guarded(async () => {
    const role = $("#mint-role").value;
    const combatants = $("#mint-combatants").value.split(",").map((s) => s.trim()).filter(Boolean);
    const label = $("#mint-label").value.trim() || null;
    const minted = await ctx.api.request("POST", ctx.api.path("/tokens"), {
      role, combatants: role === "player" ? combatants : [], label,
    });
    const link = linkFor(ctx.api.encounterId, minted.token);
    $("#mint-link").replaceChildren(el("a", { href: link, id: "minted-link" }, link));
  });
}

// --- start ------------------------------------------------------------------------------

function wire() {
  $("#create-form").addEventListener("submit", create);
  $("#join-form").addEventListener("submit", join);
  $("#command-form").addEventListener("submit", sendCommand);
  $("#mint-form").addEventListener("submit", mint);
  $("#undo").addEventListener("click", () => gmWrite("/undo", {}));
  $("#redo").addEventListener("click", () => gmWrite("/redo", {}));
  $("#undo-to").addEventListener("click", () => gmWrite("/undo", { to_version: ctx.at }));
  $("#reveal-seed").addEventListener("click", () => gmWrite("/dice/reveal", {}));
  $("#fork").addEventListener("click", fork);
  $("#version-slider").addEventListener("input", (e) => labelSlider(Number(e.target.value)));
  $("#version-slider").addEventListener("change", (e) => showVersion(Number(e.target.value)));
  $("#round-back").addEventListener("click", () => stepRound(-1));
  $("#round-forward").addEventListener("click", () => stepRound(1));
  $("#back-to-live").addEventListener("click", () => showVersion(ctx.head));
  window.addEventListener("hashchange", open);
}

wire();
loadRulesets().catch((error) => setStatus(`Could not list rulesets: ${error.message}`));
open();
