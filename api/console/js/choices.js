// What a command's field may name, from the encounter's own state: its combatants (or
// characters, units, sides), zones, areas and hexes, and the acting combatant's sheet
// (attacks, weapons, maneuvers, spells, skills).  A field is matched by its name and,
// where the name is ambiguous (`a`, `b`, `to`), by what its schema says it holds.

import { words } from "./schema.js";

/** The combatants of a game as [{id, ...}], whatever the ruleset calls them. */
export function roster(game) {
  for (const key of ["combatants", "characters", "units"]) {
    const found = game && game[key];
    if (found && typeof found === "object") {
      return Array.isArray(found) ? found : Object.entries(found).map(([id, c]) => ({ id, ...c }));
    }
  }
  return [];
}

function keyed(value) {
  if (!value || typeof value !== "object") return [];
  return Array.isArray(value) ? value.map((v) => (typeof v === "object" ? v.id : v)).filter(Boolean) : Object.keys(value);
}

function zones(game) {
  if (game.zones) return keyed(game.zones);
  const out = new Set();
  for (const entry of game.options?.zone_map || []) {
    const pair = Array.isArray(entry) ? entry.slice(0, 2) : [entry.a, entry.b];
    for (const z of pair) if (typeof z === "string") out.add(z);
  }
  for (const c of roster(game)) if (typeof c.zone === "string") out.add(c.zone);
  return [...out];
}

function sides(game) {
  if (game.sides && typeof game.sides === "object") return keyed(game.sides);
  return [...new Set(roster(game).map((c) => c.side).filter((s) => typeof s === "string"))];
}

const ROSTER = new Set([
  "attacker", "target", "combatant", "character", "actor", "defender", "roller", "who", "by",
  "combatants", "order", "targets", "enter", "leave", "users", "minion_of", "mover", "ally",
  "bonds", "reference",
]);
const ACTOR = ["attacker", "combatant", "character", "actor", "side", "by"];
const ZONE = new Set(["zone", "move_to", "links"]);
const AREA = new Set(["area", "adjacent", "start_area"]);
const HEX = new Set(["hex", "to", "lord_hex", "home_city"]);
const UNITS = new Set(["units", "commit", "promote", "line"]);
/** A sheet entry: which part of the acting combatant's sheet names it. */
const SHEET = {
  using: ["attacks", "checks"], weapon: ["weapons"], maneuver: ["maneuvers"], spell: ["spells"],
  skill: ["skills"], attribute: ["attributes"], trait: ["skills"],
};
const TRAITS = ["dexterity", "toughness", "willpower", "intellect"];

/** One part of a combatant's sheet (its weapons, skills): on the combatant itself in the
 * GM's state, under `sheet` in the state a player sees of their own. */
export function sheetPart(who, part) {
  return (who && (who[part] ?? who.sheet?.[part])) || null;
}

/** The parts of the acting combatant's sheet a field picks from: `using` names an attack
 * in an attack and a check in a check. */
export function sheetParts(command, name) {
  if (!SHEET[name]) return null;
  if (name !== "using") return SHEET[name];
  return /check/.test(command.type.split(".").pop()) ? ["checks"] : ["attacks"];
}

/** The field naming who acts in a command, if it has one. */
export function actorField(command) {
  return command.fields.find((f) => ACTOR.includes(f.name) && ["text", "scalar"].includes(f.kind)) || null;
}

function ids(values, names = {}) {
  return values.map((v) => ({ value: v, label: names[v] && names[v] !== v ? `${names[v]} (${v})` : v }));
}

/**
 * A function giving the choices of one field, or null when the field is free (a new
 * combatant's id, a name, a number).  `state()` gives the encounter's game as shown;
 * `actor()` the id the command's acting field holds now; `own` the ids a player's token
 * is bound to (their pickers offer only those).
 */
export function choicesFor(command, field, { state, actor, own }) {
  const name = field.name;
  const about = `${field.prop.description || ""}`.toLowerCase();
  const verb = command.type.split(".").pop();
  const creating = /^(add|define)_/.test(verb);
  const names = () => Object.fromEntries(roster(state()).map((c) => [c.id, c.name || c.id]));
  const people = () => {
    const all = roster(state()).map((c) => c.id);
    return own && ACTOR.includes(name) ? all.filter((id) => own.includes(id)) : all;
  };
  const of = (list) => () => ids(list(), names());
  // What a creating command makes is new: a new hex of add_hexes is typed, not picked.
  if (creating && verb.replace(/^(add|define)_/, "").startsWith(name)) return null;
  if (name === "id") {
    // A placed token (cover, a hazard) is new too: its id is typed.
    if (creating || /^place_token$/.test(verb)) return null;
    if (/feature/.test(verb)) return of(() => keyed(state().features));
    return of(people);
  }
  if (name === "initiating_side") return () => ids(sides(state()));
  if (name === "side" && creating && command.fields.some((f) => f.name === "id")) {
    // A new combatant's side may be a new one: typed, with the known sides suggested.
    return Object.assign(() => ids(sides(state())), { suggest: true });
  }
  if (name === "side") {
    return () => ids(own ? sides(state()).filter((s) => own.includes(s)) : sides(state()));
  }
  if (HEX.has(name) || /\bhex\b/.test(about)) return of(() => keyed(state().hexes));
  if (ZONE.has(name) || (["a", "b"].includes(name) && /zone/.test(about + verb))) return of(() => zones(state()));
  if (AREA.has(name) || /\barea\b/.test(about)) return of(() => keyed(state().areas));
  if (UNITS.has(name)) return of(() => keyed(state().units));
  if (name === "feature") return of(() => keyed(state().features));
  if (name === "press") return of(() => keyed(state().pending));
  if (name === "condition" && /remove/.test(verb)) {
    return () => {
      const target = roster(state()).find((c) => c.id === actor("target"));
      return ids((target?.conditions || []).map((c) => (typeof c === "object" ? c.name : c)));
    };
  }
  if (SHEET[name]) {
    // A sheet being written names its own entries: nothing to pick from yet.
    if (creating) return null;
    return () => {
      const who = roster(state()).find((c) => c.id === actor());
      if (!who) return [];
      const found = sheetParts(command, name).flatMap((part) => keyed(sheetPart(who, part)));
      if (name === "trait") found.unshift(...TRAITS.filter((t) => t in who || t in (who.sheet || {})));
      return ids(found.map((v) => (typeof v === "object" ? words(v.name) : v)));
    };
  }
  if (name === "ability") {
    return () => {
      const side = state().sides?.[actor()];
      return ids((side?.sheet?.abilities || []).map((a) => (typeof a === "object" ? a.name : a)));
    };
  }
  if (ROSTER.has(name) || ["a", "b"].includes(name)) {
    if (creating && name !== "minion_of") return null;
    return of(people);
  }
  return null;
}
