// Drawing the encounter's records: requests, the replay log, the roll ledger and the
// statistics; and, for a ruleset without a view of its own, what its state holds beyond
// the roster, listed as is.

import { el } from "./dom.js";

const SHOWN = new Set(["options", "combatants", "characters", "units", "order", "phase", "stage", "outcomes", "round", "turn", "current"]);

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

/** What a ruleset without a view of its own holds beyond its roster, listed as is
 * (empty lists and unset values left out). */
export function generalView(game) {
  const rest = Object.entries(game).filter(([k, v]) => !SHOWN.has(k) && v != null && v !== false
    && !(Array.isArray(v) && !v.length) && !(typeof v === "object" && !Object.keys(v).length));
  return rest.length
    ? el("dl", { class: "more" }, rest.flatMap(([k, v]) => [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, listed(v))]))
    : null;
}

/** Every field, notation and die of a waiting request: what Allow will apply, nothing hidden. */
function asked(r) {
  const fields = Object.entries(r.command || {})
    .filter(([k, v]) => k !== "type" && v != null && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  const dice = r.manual_dice ? `dice ${r.manual_dice.map((f) => `[${f.join(", ")}]`).join(" ")}` : "encounter's dice";
  return `${r.command?.type}: ${[...fields, dice].join(", ")}`;
}

/** One waiting request; the GM gets Allow, Refuse (with a reason) and Amend on it. */
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

/** The requests waiting for the GM's answer; the GM may refuse them all at once. */
export function requests(state, answer = null) {
  const waiting = Object.entries(state.requests || {});
  const clear = answer && waiting.length > 1
    ? el("div", { class: "answer" },
        el("label", { for: "clear-requests-reason", class: "sr-only" }, "Reason to refuse every request"),
        el("input", { id: "clear-requests-reason", placeholder: "reason to refuse them all", autocomplete: "off" }),
        el("button", { type: "button", onclick: () => answer(null, "clear", document.getElementById("clear-requests-reason").value) }, "Refuse every waiting request"))
    : null;
  return waiting.length
    ? el("div", { class: "requests" }, el("h4", {}, "Requests to the GM"),
        el("ul", {}, waiting.map(([id, r]) => request(id, r, answer))), clear)
    : null;
}

function actor(by) {
  if (!by) return "someone";
  return by.role === "gm" || by.role === "service" ? "the GM" : `${by.role} ${by.token_id || ""}`.trim();
}

/** A "Show older" button under a list cut to its newest `shown` items. */
function more(total, shown, what, onMore) {
  if (total <= shown || !onMore) return null;
  return el("button", { type: "button", class: "small older", onclick: onMore }, `Show ${Math.min(20, total - shown)} older ${what} (${total - shown} more)`);
}

/** The replay log, newest first, cut to the newest `shown` entries. */
export function log(entries, { shown = Infinity, onMore = null } = {}) {
  const list = el("ol", { class: "log", reversed: true, "aria-label": "Replay log, newest first" });
  const newest = entries.slice(-shown).reverse();
  for (const entry of newest) {
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
  return [list, more(entries.length, newest.length, "entries", onMore)];
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

/** The ledger, newest first and cut to `shown` rolls; `revealable` is the set of hidden
 * roll ids the GM can still reveal. */
export function ledger(rolls, { verdicts, revealable, onReveal, shown = Infinity, onMore = null }) {
  const body = el("tbody");
  const newest = rolls.slice(-shown).reverse();
  for (const roll of newest) {
    const cells = roll.redacted
      ? [el("td", { colspan: 6, "data-label": "Roll" }, `GM rolls secretly${roll.roller ? ` for ${roll.roller}` : ""}`)]
      : roll.source === "sealed"
      // A sealed command's marker: its own rolls are listed as records of their own.
      ? [el("td", { colspan: 6, "data-label": "Roll" }, `Sealed command ${roll.roll_id} (its own rolls are ${roll.roll_id}.1 and on)`)]
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
  return [el("table", { class: "ledger" }, el("caption", { class: "sr-only" }, "Roll ledger, newest first"), head, body),
    more(rolls.length, newest.length, "rolls", onMore)];
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
