// A view per ruleset, drawn from its own state: what each system's table needs to see
// beyond the tracker's rows (Aeonisk's declarations and bands, the Aeonis hex map,
// Scentfinder's areas and the test waiting for its degree, Untold Aeons's karma and
// turn slots, TACTICS's zones and pending Presses).  A ruleset without a view here gets
// the general one: its state listed as is.

import { roster } from "./choices.js";
import { el } from "./dom.js";
import { generalView } from "./render.js";
import { words } from "./schema.js";

const nameOf = (game) => {
  const names = Object.fromEntries(roster(game).map((c) => [c.id, c.name || c.id]));
  return (id) => names[id] || id;
};

function facts(title, rows) {
  const shown = rows.filter(([, v]) => v != null && v !== "");
  if (!shown.length) return null;
  return el("section", { class: "view-part", "aria-label": title }, el("h4", {}, title),
    el("dl", { class: "facts" }, shown.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])));
}

function aeonisk(game) {
  const name = nameOf(game);
  const phase = game.phase?.type;
  const people = roster(game).filter((c) => c.status !== "dead");
  const declared = Object.keys(game.declarations || {});
  const due = phase === "declare" ? people.filter((c) => !declared.includes(c.id)).map((c) => name(c.id)) : [];
  const bands = Object.entries(game.bands || {}).map(([pair, band]) => `${pair.split(/[|,]/).map(name).join(" – ")}: ${words(band)}`);
  const tokens = Object.entries(game.tokens || {}).map(([id, t]) => `${t.label || id} (${words(t.kind || "")})`);
  return facts("Aeonisk", [
    ["Phase", phase ? words(phase) : null],
    ["Declared", declared.length ? declared.map(name).join(", ") : null],
    ["Declarations due", due.length ? due.join(", ") : phase === "declare" ? "none" : null],
    ["Initiative due", (game.initiative_due || []).map(name).join(", ")],
    ["Bands", bands.join("; ")],
    ["Tokens", tokens.join("; ")],
  ]);
}

const SIDE_COLOURS = ["#b3261e", "#1b5fa8", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f"];

function hexMap(game) {
  const hexes = Object.entries(game.hexes || {});
  if (!hexes.length) return null;
  const sides = Object.keys(game.sides || {});
  const colour = (side) => (side ? SIDE_COLOURS[sides.indexOf(side) % SIDE_COLOURS.length] : "#9e9e9e");
  const size = 34;
  const at = (key) => {
    const [q, r] = key.split(",").map(Number);
    return [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r];
  };
  const points = hexes.map(([key]) => at(key));
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const pad = size + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const NS = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs, ...kids) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    for (const kid of kids) node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return node;
  };
  const units = Object.values(game.units || {});
  const map = svg("svg", { viewBox: box.join(" "), class: "hexmap", role: "img", "aria-labelledby": "hexmap-title" },
    svg("title", { id: "hexmap-title" }, `Hex map: ${hexes.length} hexes`));
  for (const [key, hex] of hexes) {
    const [x, y] = at(key);
    const corners = [0, 1, 2, 3, 4, 5].map((i) => {
      const a = (Math.PI / 180) * (60 * i - 30);
      return `${(x + (size - 1) * Math.cos(a)).toFixed(1)},${(y + (size - 1) * Math.sin(a)).toFixed(1)}`;
    }).join(" ");
    const battle = game.battles?.[key];
    const here = units.filter((u) => u.hex === key);
    const counts = sides.map((s) => [s, here.filter((u) => u.side === s).length]).filter(([, n]) => n);
    map.append(svg("g", { "data-hex": key },
      svg("polygon", { points: corners, fill: colour(hex.controller), "fill-opacity": 0.25, stroke: battle ? "#000" : "#555", "stroke-width": battle ? 3 : 1 }),
      svg("text", { x, y: y - 12, "text-anchor": "middle", class: "hex-key" }, key),
      svg("text", { x, y: y + 2, "text-anchor": "middle", class: "hex-kind" }, hex.kind || ""),
      svg("text", { x, y: y + 16, "text-anchor": "middle", class: "hex-units" }, counts.map(([s, n]) => `${s} ${n}`).join(" · ")),
      battle ? svg("text", { x, y: y + 28, "text-anchor": "middle", class: "hex-battle" }, battle.siege ? "siege" : "battle") : ""));
  }
  return map;
}

function aeonis(game) {
  const battles = Object.entries(game.battles || {}).map(([hex, b]) => el("li", { "data-battle": hex },
    el("strong", {}, `${b.siege ? "Siege" : "Battle"} at ${hex}`), `: ${b.attacker} attacks ${b.defender}, step ${words(b.step || "")}`,
    el("br"), `${b.attacker} line: ${(b.attacker_line || []).join(", ") || "none"}; reserves: ${(b.attacker_reserves || []).join(", ") || "none"}`,
    el("br"), `${b.defender} line: ${(b.defender_line || []).join(", ") || "none"}; reserves: ${(b.defender_reserves || []).join(", ") || "none"}`));
  const sides = Object.entries(game.sides || {}).map(([id, s]) => `${s.name || id}: ${s.ap} AP, renown ${s.renown}, VP ${s.vp}`);
  return el("section", { class: "view-part", "aria-label": "Aeonis" },
    el("h4", {}, `Aeonis · round ${game.round ?? "–"} · ${words(game.stage || "")}`),
    hexMap(game),
    sides.length ? el("p", {}, sides.join(" · ")) : null,
    battles.length ? el("ul", { class: "battles" }, battles) : null);
}

function scentfinder(game) {
  const name = nameOf(game);
  const people = roster(game);
  const areas = Object.entries(game.areas || {}).map(([id, a]) => {
    const here = people.filter((c) => c.area === id).map((c) => c.name || c.id);
    const traits = ["difficult", "uneven", "cover"].filter((t) => a[t]).concat(a.hazard ? [`hazard ${words(a.hazard.kind || a.hazard.damage || "")}`] : []);
    return el("li", { "data-area": id }, el("strong", {}, a.name || id), traits.length ? ` (${traits.join(", ")})` : "", `: ${here.join(", ") || "nobody"}`);
  });
  const pending = game.pending;
  return el("section", { class: "view-part", "aria-label": "Scentfinder" },
    facts("Scentfinder", [
      ["Stage", game.stage ? words(game.stage) : null],
      ["Round", game.round],
      ["Whose turn", game.current ? name(game.current) : null],
      ["Done this round", (game.done || []).map(name).join(", ")],
      ["Waiting for its degree", pending ? `${name(pending.actor || pending.combatant || "")} ${words(pending.action || pending.kind || "test")}${pending.target ? ` on ${name(pending.target)}` : ""}` : null],
      ["Links", (game.links || []).map((l) => l.map((a) => game.areas?.[a]?.name || a).join(" – ")).join("; ")],
    ]),
    areas.length ? el("ul", { class: "areas", "aria-label": "Areas" }, areas) : null);
}

function untold(game) {
  const name = nameOf(game);
  const slots = (game.slots || []).map((s) => `${words(s.speed)} ${s.side}${s.initiating ? " (initiating)" : ""}: ${(s.characters || []).map(name).join(", ")}`);
  return facts("Untold Aeons", [
    ["Round", game.round],
    ["Phase", game.phase ? words(typeof game.phase === "object" ? game.phase.type : game.phase) : null],
    ["Karma", `players ${game.karma_players ?? "–"}, narrator ${game.karma_narrator ?? "–"}`],
    ["Turn slots", slots.join(" · ")],
    ["Done", (game.done || []).map(name).join(", ")],
    ["Waiting for", game.pending ? words(game.pending.kind || game.pending.type || "a roll") : null],
  ]);
}

function tactics(game) {
  const name = nameOf(game);
  const people = roster(game);
  const zones = Object.entries(game.zones || {}).map(([id, links]) => el("li", { "data-zone": id }, el("strong", {}, id),
    Array.isArray(links) && links.length ? ` (to ${links.join(", ")})` : "",
    `: ${people.filter((c) => c.zone === id).map((c) => c.name || c.id).join(", ") || "nobody"}`));
  const pending = (game.pending || []).map((p) => `${p.id}: ${name(p.attacker)}'s ${p.weapon} at ${(p.hits || []).map((h) => name(h.target)).join(", ")}`);
  return el("section", { class: "view-part", "aria-label": "TACTICS" },
    facts("TACTICS", [
      ["Turn order", (game.order || []).map(name).join(" → ")],
      ["Pending Presses", pending.join("; ") || "none"],
      ["Actions left", people.filter((c) => c.actions_left != null).map((c) => `${c.name || c.id} ${c.actions_left}`).join(", ")],
      ["Shields", people.filter((c) => c.max_shields).map((c) => `${c.name || c.id} ${c.shields}/${c.max_shields}`).join(", ")],
    ]),
    zones.length ? el("ul", { class: "zones", "aria-label": "Zones" }, zones) : null);
}

const VIEWS = { aeonisk, aeonis: aeonis, scentfinder, "untold-aeons": untold, tactics };

/** The ruleset's own view of its state, or the general one. */
export function rulesetView(ruleset, game) {
  const view = VIEWS[ruleset];
  return view ? view(game) : generalView(game);
}
