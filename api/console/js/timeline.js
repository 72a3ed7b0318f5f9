// Time travel and the GM's safety net: the version slider and round steppers (reading
// any past version with ?at=N), and the undo history.  Undo takes back the last command
// in effect (never redoes: the API's bare undo of an undo would); each command of the
// history offers "undo back to before this", which takes it and all later ones back.

import { $, el } from "./dom.js";
import { ctx, guarded, isGm } from "./page.js";

const CORE = /^(encounter|dice|history|request|requests)\./;

function roundAt(version) {
  let round = null;
  for (const entry of ctx.fullLog) if (entry.version <= version) round = entry.round ?? round;
  return round;
}

export function labelSlider(version) {
  const round = roundAt(version);
  const text = `Version ${version} of ${ctx.head}${round != null ? ` · round ${round}` : " · before round 1"}`;
  $("#version-label").textContent = text;
  $("#version-slider").setAttribute("aria-valuetext", text);
}

export function updateSlider() {
  const slider = $("#version-slider");
  const shown = ctx.at ?? ctx.head;
  slider.max = String(ctx.head);
  slider.value = String(shown);
  labelSlider(shown);
  $("#undo-to").disabled = ctx.at == null;
}

export function showVersion(version) {
  ctx.at = version >= ctx.head ? null : Math.max(1, version);
  ctx.reload();
}

export function stepRound(delta) {
  const shown = ctx.at ?? ctx.head;
  const target = (roundAt(shown) ?? 0) + delta;
  const inRound = ctx.fullLog.filter((e) => e.round === target && !e.undone);
  if (!inRound.length) return showVersion(delta > 0 ? ctx.head : shown);
  return showVersion(Math.max(...inRound.map((e) => e.version)));
}

/** The log's entries grouped by the command that wrote them (one commit, one time). */
export function commandsInLog(entries) {
  const groups = [];
  for (const entry of entries) {
    const last = groups[groups.length - 1];
    if (last && last.recorded_at === entry.recorded_at) last.entries.push(entry);
    else groups.push({ recorded_at: entry.recorded_at, first: entry.version, entries: [entry] });
  }
  return groups.filter((g) => !CORE.test(g.entries[0].type) && !g.entries[0].undone);
}

function gmWrite(sub, body) {
  return guarded(async () => {
    await ctx.api.write(sub, body);
    ctx.at = null;
    ctx.reload();
  });
}

/** The undo history: the newest commands in effect, each with "undo back to before it". */
export function drawHistory() {
  const box = $("#undo-history");
  if (!isGm()) return;
  const groups = commandsInLog(ctx.fullLog).slice(-8).reverse();
  $("#undo-what").textContent = groups.length ? `Last command: ${groups[0].entries[0].text}` : "";
  box.replaceChildren(...(groups.length
    ? [el("ol", { class: "history", "aria-label": "Commands in effect, newest first" }, groups.map((g) =>
        el("li", {}, el("span", { class: "text" }, `v${g.first} ${g.entries[0].text}`),
          el("button", { type: "button", class: "small", onclick: () => gmWrite("/undo", { to_version: g.first - 1 }) },
            `Undo back to before v${g.first}`))))]
    : [el("p", { class: "hint" }, "Nothing to undo yet.")]));
}

export function wireTimeline() {
  $("#undo").addEventListener("click", () => gmWrite("/undo", { steps: 1 }));
  $("#redo").addEventListener("click", () => gmWrite("/redo", {}));
  $("#undo-to").addEventListener("click", () => gmWrite("/undo", { to_version: ctx.at }));
  $("#version-slider").addEventListener("input", (e) => labelSlider(Number(e.target.value)));
  $("#version-slider").addEventListener("change", (e) => showVersion(Number(e.target.value)));
  $("#round-back").addEventListener("click", () => stepRound(-1));
  $("#round-forward").addEventListener("click", () => stepRound(1));
  $("#back-to-live").addEventListener("click", () => showVersion(ctx.head));
  for (const button of document.querySelectorAll(".to-live")) button.addEventListener("click", () => showVersion(ctx.head));
}
