// The tracker: one row per combatant (or unit) with its measure as a bar (hit points, or
// wounds against their limit), conditions as badges, initiative, and the current and
// next combatant marked.  Each ruleset folds its own state, so rows are read by shape;
// what a ruleset holds beyond its roster is drawn by its view (views.js).

import { roster } from "./choices.js";
import { el } from "./dom.js";
import { words } from "./schema.js";

export function turnOf(game) {
  const phase = game.phase && typeof game.phase === "object" ? game.phase : {};
  const turn = phase.turn ?? game.turn ?? (typeof game.current === "string" ? game.current : null);
  return {
    phase: phase.stage || phase.type || (typeof game.phase === "string" ? game.phase : null) || game.stage || null,
    round: phase.round ?? game.round ?? null,
    turn,
  };
}

/** The initiative order as [{id, value}] (entries may be ids or records). */
export function orderOf(game) {
  return (game.order || []).map((entry) => (typeof entry === "object"
    ? { id: entry.combatant ?? entry.id, value: entry.total ?? entry.value ?? null }
    : { id: entry, value: null }));
}

export function nextOf(game, turn) {
  const order = orderOf(game).map((o) => o.id);
  const i = order.indexOf(turn);
  return i < 0 || order.length < 2 ? null : order[(i + 1) % order.length];
}

/** The measure a bar shows: {label, value, max, text} or a word, or null. */
export function measure(c, game) {
  const h = c.health;
  if (h && h.current != null) return { label: "hp", value: h.current, max: h.maximum, text: `${h.current}/${h.maximum} hp` };
  if (h && h.word) return { label: "health", text: h.word };
  if (h) return { label: "health", text: "health hidden" };
  if (c.hp != null && c.max_hp) return { label: "hp", value: c.hp, max: c.max_hp, text: `${c.hp}/${c.max_hp} hp` };
  if (c.hp != null) return { label: "hp", text: `${c.hp} hp` };
  const limit = game.options?.wound_limit;
  if (Array.isArray(c.wounds) && limit) {
    const taken = c.wounds.reduce((n, w) => n + (typeof w === "object" ? w.amount ?? w.wounds ?? 1 : Number(w) || 1), 0);
    return { label: "wounds", value: limit - taken, max: limit, text: `${taken}/${limit} wounds` };
  }
  if (typeof c.wounds === "number") return { label: "wounds", text: `${c.wounds} wounds${c.stun ? `, ${c.stun} stun` : ""}` };
  return null;
}

export function bar(m) {
  if (m.value == null || !m.max) return el("span", { class: "measure" }, m.text);
  const share = Math.max(0, Math.min(1, m.value / m.max));
  const level = share > 0.5 ? "ok" : share > 0.25 ? "hurt" : "low";
  return el("span", { class: "measure" },
    el("meter", { class: `bar ${level}`, min: 0, max: m.max, value: Math.max(0, m.value), low: m.max * 0.26, high: m.max * 0.51, optimum: m.max, "aria-label": m.label }),
    el("span", { class: "measure-text" }, m.text));
}

/** A row's short facts: where it stands and what it has left, when the ruleset says. */
const FACTS = [
  ["zone", (v) => `zone ${v}`], ["area", (v) => `in ${v}`], ["hex", (v) => `hex ${v}`], ["kind", (v) => words(v)],
  ["status", (v) => (v === "active" ? null : words(v))], ["stance", (v) => (v === "normal" ? null : words(v))],
  ["actions_left", (v) => `${v} actions left`], ["actions", (v) => `${v} actions`], ["shields", (v, c) => (c.max_shields ? `shields ${v}/${c.max_shields}` : null)],
  ["stress", (v) => (typeof v === "object" ? (v.current != null ? `stress ${v.current}/${v.maximum}` : v.word ? `stress ${v.word}` : null) : v ? `stress ${v}` : null)],
  ["stun", (v) => (v ? `stun ${v}` : null)], ["shocks", (v) => (v ? `shocks ${v}` : null)],
  ["fp", (v, c) => (c.max_fp ? `fp ${v}/${c.max_fp}` : null)], ["prone", (v) => (v ? "prone" : null)],
];

export function factsOf(c) {
  const out = FACTS.map(([key, show]) => (c[key] != null && typeof c[key] !== "undefined" ? show(c[key], c) : null)).filter(Boolean);
  return out.length ? el("span", { class: "facts-line" }, out.join(" · ")) : null;
}

export function conditionBadges(c) {
  const list = c.conditions || [];
  if (!list.length) return null;
  return el("ul", { class: "badges", "aria-label": `Conditions of ${c.name || c.id}` }, list.map((cond) => {
    if (typeof cond !== "object") return el("li", { class: "badge condition" }, words(cond));
    const left = cond.expires_at_round != null ? ` until round ${cond.expires_at_round}` : cond.rounds != null ? ` ${cond.rounds} rounds` : "";
    return el("li", { class: "badge condition" }, `${words(cond.name)}${left}`);
  }));
}

function initiativeOf(c, game) {
  const entry = orderOf(game).find((o) => o.id === c.id);
  return entry?.value ?? c.initiative ?? c.init_value ?? null;
}

/**
 * The tracker's rows.  `onPick(id)` (when given) is called when a row's name is pressed:
 * the page then offers what can be done to or by that combatant; `onInitiative(id)` (the
 * GM's, where the ruleset lets initiative be set) when its initiative is pressed.
 */
export function trackerRows(game, { onPick = null, picked = null, onInitiative = null } = {}) {
  const { phase, round, turn } = turnOf(game);
  const people = roster(game);
  const names = Object.fromEntries(people.map((c) => [c.id, c.name || c.id]));
  const next = nextOf(game, turn);
  const heading = el("p", { class: "turn", id: "turn-line" },
    round != null ? `Round ${round}` : "Before the first round",
    turn ? ` · ${names[turn] || turn}'s turn` : "",
    next ? ` · next ${names[next] || next}` : "",
    phase ? ` · ${words(phase)}` : "");
  const order = orderOf(game);
  const sorted = order.length
    ? [...order.map((o) => people.find((c) => c.id === o.id)).filter(Boolean), ...people.filter((c) => !order.some((o) => o.id === c.id))]
    : people;
  const rows = el("ul", { class: "combatants", "aria-label": "Combatants" });
  for (const c of sorted) {
    const m = measure(c, game);
    const init = initiativeOf(c, game);
    const mark = c.id === turn ? "now" : c.id === next ? "next" : null;
    const name = onPick
      ? el("button", { type: "button", class: "pick", "aria-pressed": String(picked === c.id), onclick: () => onPick(c.id) }, c.name || c.id)
      : el("strong", {}, c.name || c.id);
    rows.append(el("li", {
      class: ["combatant", mark === "now" ? "active" : null, mark === "next" ? "next" : null, picked === c.id ? "picked" : null].filter(Boolean).join(" "),
      "aria-current": mark === "now" ? "true" : null, "data-id": c.id,
    },
    onInitiative
      ? el("button", { type: "button", class: "init", "aria-label": `Set initiative of ${c.name || c.id} (${init ?? "none"})`, onclick: () => onInitiative(c.id) }, init != null ? String(init) : "–")
      : el("span", { class: "init", title: "initiative" }, init != null ? String(init) : "–"),
    el("span", { class: "who" }, name,
      mark ? el("span", { class: `badge mark ${mark}` }, mark === "now" ? "acting" : "next") : null,
      c.side ? el("span", { class: "side" }, ` ${c.side}`) : null),
    m ? bar(m) : null,
    factsOf(c),
    conditionBadges(c)));
  }
  return [heading, rows];
}
