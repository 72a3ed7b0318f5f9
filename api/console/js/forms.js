// The form of one command: a labelled editor per field (editors.js), with pickers fed by
// the encounter's state (choices.js).  The ruleset's example is shown as placeholders and
// hints, never sent: a field left empty is left out, so the service applies its default.

import { actorField, choicesFor } from "./choices.js";
import { el } from "./dom.js";
import { editorFor } from "./editors.js";
import { words } from "./schema.js";

function hintOf(field, example) {
  const parts = [];
  if (field.prop.description) parts.push(field.prop.description);
  if (example != null && typeof example === "object" && Object.keys(example).length) {
    parts.push(`Example: ${JSON.stringify(example)}`);
  }
  return parts.join(" ");
}

/**
 * The command's form: { nodes, read(), set(name, value), editors }.  `context` gives
 * state() (the game as shown), own (the ids a player's token is bound to, else null),
 * prefix (of the inputs' ids, when a page holds two forms of one command; default "f").
 * A player's acting field starts on their own combatant: the one value chosen for them.
 */
export function commandForm(command, context) {
  const editors = new Map();
  const acting = actorField(command);
  const actor = (name = acting?.name) => (name ? editors.get(name)?.read() : undefined);
  const nodes = command.fields.map((field) => {
    const id = `${context.prefix || "f"}-${command.type}-${field.name}`.replace(/[^\w-]/g, "_");
    const label = words(field.name);
    const example = command.example[field.name];
    const where = { state: context.state, actor, own: context.own };
    const choices = choicesFor(command, field, where);
    // Fields inside a structured value (a declared attack's target and weapon, an
    // initiative entry's combatant) pick from the encounter too.
    // Only the command's own acting field is limited to a player's combatants: an
    // attacker named inside a reaction is the other side's.
    const choicesOf = (inner) => choicesFor(command, inner, { ...where, own: null });
    const editor = editorFor(field.prop, command.defs, {
      id, label, required: field.required && !field.nullable, example, choices, choicesOf,
    });
    editors.set(field.name, editor);
    const text = label + (field.required ? "" : " (optional)");
    const caption = editor.input ? el("label", { for: id }, text) : el("span", { class: "label", id: `${id}-label` }, text);
    if (!editor.input) editor.node.setAttribute("aria-labelledby", `${id}-label`);
    const wrap = el("div", { class: field.required ? "field" : "field optional", "data-field": field.name }, caption, editor.node);
    const hint = hintOf(field, example);
    if (hint) {
      (editor.input || editor.node).setAttribute("aria-describedby", `${id}-hint`);
      wrap.append(el("small", { id: `${id}-hint` }, hint));
    }
    return wrap;
  });
  // A sheet entry depends on who acts (and a condition to remove on whom): picking
  // another attacker or target re-reads the other pickers.
  const refreshOthers = (name) => {
    for (const [other, editor] of editors) if (other !== name && editor.refresh) editor.refresh();
  };
  for (const name of [acting?.name, "target"]) {
    const editor = name && editors.get(name);
    if (editor) editor.node.addEventListener("change", () => refreshOthers(name));
  }
  const set = (name, value) => {
    const editor = editors.get(name);
    if (!editor || !editor.set) return;
    editor.set(value);
    refreshOthers(name);
  };
  if (acting && context.own && context.own.length) set(acting.name, context.own[0]);
  return {
    nodes,
    editors,
    set,
    /** Re-read the pickers after the encounter changed (a combatant joined). */
    refresh: () => refreshOthers(null),
    /** The command as JSON; throws an Error naming a field that cannot be read. */
    read() {
      const out = { type: command.type };
      for (const field of command.fields) {
        const value = editors.get(field.name).read();
        if (value === undefined) continue;
        out[field.name] = value;
      }
      return out;
    },
  };
}

/** "16 5; 3" -> [[16, 5], [3]]: one list of faces per roll, rolls split by ";". */
export function parseDice(text) {
  const rolls = text.split(";").map((r) => r.trim()).filter(Boolean);
  if (!rolls.length) return null;
  return rolls.map((roll) => {
    const faces = roll.split(/[\s,]+/).map(Number);
    if (faces.some((f) => !Number.isInteger(f) || f < 1)) {
      throw new Error(`manual dice: "${roll}" is not a list of faces`);
    }
    return faces;
  });
}
