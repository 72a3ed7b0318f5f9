// Drawing the encounter: the tracker, the replay log and the roll ledger.  Every ruleset
// folds its own state, so the tracker reads it by shape: a map of combatants (or units),
// their health in whatever form the caller may see it, conditions with durations, the
// initiative order and the phase; what is left (areas, bands, hexes) is listed as is.

import { el } from "./dom.js";

const HEALTH = ["hp", "max_hp", "health", "wounds", "stress", "fatigue", "strength", "morale"];
const SKIPPED = new Set(["id", "name", "conditions", "attacks", "checks", "stats", "side"]);
const GAME_SHOWN = new Set(["options", "combatants", "units", "order", "phase", "stage", "outcomes"]);

function words(value) {
  if (value == null) return "";
  if (Array.isArray(value)) return value.map(words).join(", ");
  if (typeof value === "object") {
    return Object.entries(value)
      .filter(([, v]) => v != null)
      .map(([k, v]) => (typeof v === "object" ? `${k}: ${words(v)}` : `${k} ${v}`))
      .join("; ");
  }
  return String(value);
}

/** Areas, bands, hexes, sides, battles: a map or list of records becomes a list. */
function listed(value) {
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i + 1), v])
    : value && typeof value === "object" ? Object.entries(value) : null;
  if (!entries || !entries.some(([, v]) => v && typeof v === "object")) return words(value) || "none";
  if (!entries.length) return "none";
  return el("ul", {}, entries.map(([k, v]) => el("li", {}, el("strong", {}, k), `: ${words(v)}`)));
}

function healthText(c) {
  if (c.health) {
    const h = c.health;
    if (h.current != null) return `${h.current}/${h.maximum} hp`;
    if (h.word) return h.word;
    return "health hidden";
  }
  if (c.hp != null) return c.max_hp != null ? `${c.hp}/${c.max_hp} hp` : `${c.hp} hp`;
  return null;
}

function roster(game) {
  for (const key of ["combatants", "units", "characters"]) {
    const found = game[key];
    if (found && typeof found === "object") {
      // A map keyed by id may leave the id out of its values (Aeonis units).
      return Array.isArray(found) ? found : Object.entries(found).map(([id, c]) => ({ id, ...c }));
    }
  }
  return [];
}

function turnOf(game) {
  const phase = game.phase && typeof game.phase === "object" ? game.phase : {};
  return {
    phase: phase.type || (typeof game.phase === "string" ? game.phase : null) || game.stage || null,
    round: phase.round ?? game.round ?? null,
    turn: phase.turn ?? game.turn ?? null,
  };
}

function orderIds(game) {
  return (game.order || []).map((entry) => (typeof entry === "object" ? entry.combatant : entry));
}

/** One waiting request; the GM gets Allow and Refuse (with a reason) on it. */
/** Every field, notation and die of a waiting request: what Allow will apply, nothing hidden. */
function asked(r) {
  const fields = Object.entries(r.command || {})
    .filter(([k, v]) => k !== "type" && v != null && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  const dice = r.manual_dice ? `dice ${r.manual_dice.map((f) => `[${f.join(", ")}]`).join(" ")}` : "encounter's dice";
  return `${r.command?.type}: ${[...fields, dice].join(", ")}`;
}

function request(id, r, answer) {
  const line = el("li", { "data-request": id }, el("strong", {}, id), `: ${asked(r)}`, r.note ? ` "${r.note}"` : "");
  if (!answer) return line;
  const reasonId = `refuse-${id}`;
  const amendId = `amend-${id}`;
  const draft = JSON.stringify({ command: r.command, manual_dice: r.manual_dice ?? null });
  line.append(
    el("div", { class: "answer" },
      el("button", { type: "button", onclick: () => answer(id, "allow") }, `Allow ${id}`),
      el("label", { for: reasonId, class: "sr-only" }, `Reason to refuse ${id}`),
      el("input", { id: reasonId, placeholder: "reason to refuse", autocomplete: "off" }),
      el("button", { type: "button", onclick: () => answer(id, "refuse", document.getElementById(reasonId).value) }, `Refuse ${id}`),
      el("details", {},
        el("summary", {}, `Amend ${id}`),
        el("label", { for: amendId, class: "sr-only" }, `Amended request ${id}`),
        el("textarea", { id: amendId, rows: 3 }, draft),
        el("button", { type: "button", onclick: () => answer(id, "amend", document.getElementById(amendId).value) }, `Save amendment to ${id}`))),
  );
  return line;
}

export function tracker(state, answer = null) {
  const game = state.game || {};
  const { phase, round, turn } = turnOf(game);
  const names = Object.fromEntries(roster(game).map((c) => [c.id, c.name || c.id]));
  const heading = el(
    "p",
    { class: "turn", id: "turn-line" },
    round != null ? `Round ${round}` : "Before the first round",
    turn ? ` · ${names[turn] || turn}'s turn` : "",
    phase ? ` · ${phase}` : "",
  );
  const cards = el("ul", { class: "combatants", "aria-label": "Combatants" });
  for (const c of roster(game)) {
    const active = c.id === turn;
    const health = healthText(c);
    const extra = Object.entries(c).filter(
      ([k, v]) => !SKIPPED.has(k) && !HEALTH.includes(k) && v != null && typeof v !== "object",
    );
    const conditions = (c.conditions || []).map((cond) =>
      el("li", {}, typeof cond === "object"
        ? `${cond.name}${cond.expires_at_round != null ? ` (until round ${cond.expires_at_round})` : ""}${cond.rounds != null ? ` (${cond.rounds} rounds)` : ""}`
        : String(cond)),
    );
    cards.append(
      el(
        "li",
        { class: active ? "combatant active" : "combatant", "aria-current": active ? "true" : null, "data-id": c.id },
        el("strong", {}, c.name || c.id),
        c.side ? el("span", { class: "side" }, ` (${c.side})`) : null,
        health ? el("span", { class: "health" }, ` ${health}`) : null,
        ...HEALTH.filter((k) => !["hp", "max_hp", "health"].includes(k) && c[k] != null).map((k) =>
          el("span", { class: "stat" }, ` ${k} ${words(c[k])}`),
        ),
        ...extra.map(([k, v]) => el("span", { class: "stat" }, ` ${k} ${v}`)),
        c.stats ? el("span", { class: "stat" }, ` ${words(c.stats)}`) : null,
        conditions.length ? el("ul", { class: "conditions", "aria-label": "Conditions" }, conditions) : null,
      ),
    );
  }
  const order = orderIds(game);
  const initiative = order.length
    ? el("ol", { class: "order", "aria-label": "Initiative order" },
        order.map((id) => el("li", { "aria-current": id === turn ? "true" : null }, names[id] || id)))
    : null;
  const rest = Object.entries(game).filter(([k]) => !GAME_SHOWN.has(k) && k !== "round" && k !== "turn");
  const more = rest.length
    ? el("dl", { class: "more" }, rest.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, listed(v))]))
    : null;
  const requests = Object.entries(state.requests || {});
  const waiting = requests.length
    ? el("div", { class: "requests" }, el("h4", {}, "Requests to the GM"),
        el("ul", {}, requests.map(([id, r]) => request(id, r, answer))))
    : null;
  return [heading, initiative, cards, more, waiting];
}

function actor(by) {
  if (!by) return "someone";
  return by.role === "gm" || by.role === "service" ? "the GM" : `${by.role} ${by.token_id || ""}`.trim();
}

export function log(entries) {
  const list = el("ol", { class: "log", "aria-label": "Replay log" });
  for (const entry of entries) {
    const text = el("span", { class: "text" }, entry.text);
    const line = el(
      "li",
      { "data-version": entry.version, class: entry.undone ? "undone" : null },
      el("span", { class: "version" }, `v${entry.version}`),
      entry.round != null ? el("span", { class: "round" }, `R${entry.round}`) : null,
      entry.undone ? el("del", {}, text) : text,
      entry.undone
        ? el("span", { class: "undone-by" }, ` undone by ${actor(entry.undone.by)} at v${entry.undone.undo_version}`)
        : null,
    );
    list.append(line);
  }
  return list;
}

const BADGE = {
  verified: "✓ verified",
  mismatch: "✗ does not match",
  waiting: "seed not revealed yet",
  manual: "manual dice",
  secret: "secret",
  unavailable: "cannot check here",
};

export function badge(verdict) {
  return el("span", { class: `badge ${verdict}`, "data-verdict": verdict }, BADGE[verdict] || verdict);
}

function dice(roll) {
  return el("span", { class: "faces" }, roll.dice.map((d) => {
    const text = `d${d.sides}:${d.face}${d.exploded ? "!" : ""}`;
    return d.kept === false ? el("s", { title: "dropped" }, text) : el("span", {}, text);
  }).reduce((acc, node) => (acc.length ? [...acc, " ", node] : [node]), []));
}

/** The ledger; `revealable` is the set of hidden roll ids the GM can still reveal. */
export function ledger(rolls, { verdicts, revealable, onReveal }) {
  const body = el("tbody");
  for (const roll of rolls) {
    const cells = roll.redacted
      ? [el("td", { colspan: 6, "data-label": "Roll" }, `GM rolls secretly${roll.roller ? ` for ${roll.roller}` : ""}`)]
      : [
          el("td", { "data-label": "Who and why" }, `${roll.roller || "?"}: ${roll.purpose}`, el("br"), el("code", {}, roll.notation)),
          el("td", { "data-label": "Dice" }, dice(roll)),
          el("td", { "data-label": "Modifiers" }, roll.modifiers.map((m) => `${m.value >= 0 ? "+" : ""}${m.value} ${m.label}`).join(", ")),
          el("td", { class: "total", "data-label": "Total" }, String(roll.total)),
          el("td", { "data-label": "Target" }, roll.target != null ? `vs ${roll.target}` : roll.opposed_by ? `vs ${roll.opposed_by}` : ""),
          el("td", { "data-label": "Outcome" }, roll.outcome || ""),
        ];
    const reveal = revealable.has(roll.roll_id)
      ? el("button", { type: "button", class: "gm-only", onclick: () => onReveal(roll.roll_id) }, `Reveal ${roll.roll_id}`)
      : null;
    body.append(
      el(
        "tr",
        { "data-roll": roll.roll_id, class: roll.undone ? "undone" : null },
        el("th", { scope: "row" }, roll.undone ? el("del", {}, roll.roll_id) : roll.roll_id),
        ...cells,
        el("td", { "data-label": "Source" }, roll.source, roll.hidden ? " (hidden)" : ""),
        el("td", { "data-label": "Fair" }, badge(verdicts.get(roll.roll_id) || "waiting"), reveal),
      ),
    );
  }
  const head = el("thead", {}, el("tr", {}, ["Roll", "Who and why", "Dice", "Modifiers", "Total", "Target", "Outcome", "Source", "Fair?"].map((h) => el("th", { scope: "col" }, h))));
  return el("table", { class: "ledger" }, el("caption", { class: "sr-only" }, "Roll ledger"), head, body);
}

/** GET /stats: the damage meter per combatant, then the dice against a fair die. */
export function stats(figures) {
  const cell = (label, value) => el("td", { "data-label": label }, String(value));
  const meter = el("tbody");
  for (const c of figures.combatants) {
    meter.append(
      el(
        "tr",
        { "data-combatant": c.combatant },
        el("th", { scope: "row" }, c.combatant),
        cell("Dealt", c.damage_dealt),
        cell("Taken", c.damage_taken),
        cell("Healed", c.healing_received),
        cell("Hits", `${c.hits}/${c.attacks}`),
        cell("Criticals", c.criticals),
        cell("Turns", c.turns),
        cell("Per turn", c.mean_turn_seconds == null ? "–" : `${c.mean_turn_seconds.toFixed(1)} s`),
      ),
    );
  }
  const meterHead = ["Combatant", "Dealt", "Taken", "Healed", "Hits", "Criticals", "Turns", "Per turn"];
  const diceBody = el("tbody");
  for (const source of ["server", "manual"]) {
    for (const d of figures.dice[source]) {
      diceBody.append(
        el(
          "tr",
          { "data-die": `${source}-d${d.sides}` },
          el("th", { scope: "row" }, `${source} d${d.sides}`),
          cell("Dice", d.dice),
          cell("Faces 1..n", d.faces.join(" ")),
          cell("Chi-square", d.chi_square.toFixed(2)),
          cell("p", `${d.p_value.toFixed(3)}${d.reliable ? "" : " (too few dice)"}`),
        ),
      );
    }
  }
  const diceHead = ["Die", "Dice", "Faces 1..n", "Chi-square", "p"];
  const table = (caption, head, body) =>
    el("table", { class: "ledger" }, el("caption", {}, caption),
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))), body);
  return [
    table("Damage meter (undone commands left out)", meterHead, meter),
    table("Dice against a fair die (every face thrown)", diceHead, diceBody),
  ];
}
