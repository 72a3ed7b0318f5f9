// What can be done from the tracker: the turn buttons ("Next turn" for the GM, "End my
// turn" for a player whose turn it is) and, for a combatant picked in the tracker, every
// command that can name it, as buttons that open the command's form with it filled in.
// Commands are found by their fields, not by name lists per ruleset, so a new ruleset
// gets the same buttons.

import { roster } from "./choices.js";
import { el } from "./dom.js";
import { words } from "./schema.js";

const ADVANCE = /^(next_turn|next_phase|start_round|begin_round|begin|start_combat|cleanup)$/;
const END_TURN = /^(end_turn|next_turn)$/;
const NAMING = ["attacker", "combatant", "character", "actor", "target", "id", "side", "unit"];

function verb(command) {
  return command.type.split(".").pop();
}

/** Commands without a required field that move the fight on (next turn, next phase). */
export function advancing(commands) {
  return commands.filter((c) => ADVANCE.test(verb(c)) && !c.fields.some((f) => f.required));
}

/** The command that ends the turn of the combatant whose turn it is, if the ruleset has one. */
export function endingTurn(commands) {
  return commands.find((c) => END_TURN.test(verb(c))) || null;
}

/** May a player's token send this command?  The ruleset says so (`player_commands` of
 * GET /rulesets/{name}); the page does not guess it from the fields. */
export function forPlayer(command) {
  return command.player;
}

/**
 * How the GM sets a combatant's initiative, if the ruleset has a way: a ruling whose
 * `field` may name "initiative" (generic's set_value).  {command, field, value(id)}: open
 * `command` with `field` holding `value(id)`; null where the ruleset has none.
 */
export function settingInitiative(commands) {
  for (const command of commands) {
    for (const field of command.fields) {
      if (field.kind !== "union") continue;
      const { mapping, propertyName } = field.schema.discriminator;
      for (const [tag, ref] of Object.entries(mapping)) {
        const variant = command.defs[ref.split("/").pop()] || {};
        const named = variant.properties?.field;
        if (!variant.properties?.combatant || !/\binitiative\b/.test(named?.pattern || "")) continue;
        return { command, field: field.name, value: (id) => ({ [propertyName]: tag, combatant: id, field: "initiative" }) };
      }
    }
  }
  return null;
}

/**
 * The buttons for one picked combatant: [{command, field, label}] for each command with a
 * field that can name it.  `open(command, field, id)` shows that command's form.
 */
export function actionsFor(id, game, commands, open) {
  const who = roster(game).find((c) => c.id === id);
  if (!who) return null;
  const name = who.name || id;
  const buttons = [];
  for (const command of commands) {
    // A command creating something names it by a new id, not by this one.
    if (/^(add|define)_/.test(verb(command)) && command.fields.some((f) => f.name === "id")) continue;
    for (const field of command.fields) {
      if (!NAMING.includes(field.name) || !["text", "scalar"].includes(field.kind)) continue;
      if (field.name === "side" && who.side == null) continue;
      const value = field.name === "side" ? who.side : id;
      const role = field.name === "id" ? "" : ` (${words(field.name)})`;
      buttons.push(el("button", { type: "button", onclick: () => open(command, field.name, value) },
        `${command.title}: ${field.name === "side" ? value : name}${role}`));
    }
  }
  return el("div", { class: "act-on", role: "group", "aria-label": `Act on ${name}` },
    el("h4", {}, `Act on ${name}`), buttons.length ? buttons : el("p", { class: "hint" }, "No command names it."));
}
