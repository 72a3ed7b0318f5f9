// Command forms generated from a ruleset's JSON Schema (GET /rulesets/{name}): one field
// per property, typed by the schema, prefilled from the ruleset's example.  Numbers and
// words get inputs, yes/no a checkbox, anything structured (lists, maps) a JSON text area.

import { el } from "./dom.js";

function resolve(schema, defs) {
  if (schema && schema.$ref) return defs[schema.$ref.split("/").pop()];
  return schema;
}

/** The schema's kind, looking through `anyOf [X, null]` (an optional field). */
function kindOf(schema, defs) {
  let s = resolve(schema, defs) || {};
  let nullable = false;
  if (s.anyOf) {
    const others = s.anyOf.filter((a) => a.type !== "null");
    nullable = others.length < s.anyOf.length;
    if (others.length === 1) s = resolve(others[0], defs);
    else return { kind: "json", nullable, schema: s };
  }
  if (s.enum) return { kind: "enum", nullable, schema: s };
  if (s.type === "integer" || s.type === "number") return { kind: "number", nullable, schema: s };
  if (s.type === "boolean") return { kind: "boolean", nullable, schema: s };
  if (s.type === "string") return { kind: "text", nullable, schema: s };
  return { kind: "json", nullable, schema: s };
}

/** The commands of a ruleset: [{type, title, description, fields, example}]. */
export function commandsOf(info) {
  const defs = info.command_schema.$defs || {};
  const mapping = info.command_schema.discriminator.mapping;
  const examples = Object.fromEntries(info.commands.map((c) => [c.type, c.example]));
  return Object.entries(mapping).map(([type, ref]) => {
    const def = defs[ref.split("/").pop()];
    const required = new Set(def.required || []);
    const fields = Object.entries(def.properties)
      .filter(([name]) => name !== "type")
      .map(([name, prop]) => ({ name, prop, required: required.has(name), ...kindOf(prop, defs) }));
    return { type, title: def.title, description: def.description || "", fields, example: examples[type] || {} };
  });
}

function inputFor(field, id, value) {
  if (field.kind === "boolean") {
    return el("input", { id, name: field.name, type: "checkbox", checked: Boolean(value) });
  }
  if (field.kind === "enum") {
    const select = el("select", { id, name: field.name });
    if (field.nullable || !field.required) select.append(el("option", { value: "" }, "(none)"));
    for (const option of field.schema.enum) {
      select.append(el("option", { value: option, selected: option === value }, String(option)));
    }
    return select;
  }
  if (field.kind === "json") {
    const text = value == null ? "" : JSON.stringify(value);
    return el("textarea", { id, name: field.name, rows: 2, spellcheck: false }, text);
  }
  return el("input", {
    id,
    name: field.name,
    type: field.kind === "number" ? "number" : "text",
    value: value == null ? "" : String(value),
    required: field.required && !field.nullable,
    autocomplete: "off",
  });
}

const SELF = new Set(["attacker", "combatant", "actor", "unit", "character", "roller", "who"]);

/**
 * The form's fields for one command.  The GM's are prefilled from the ruleset's example; a
 * player's are not (a player's numbers come from the sheet, and the example's would be
 * refused), except the fields naming who acts, which get the player's own combatant.
 */
export function fieldsFor(command, player = null) {
  return command.fields.map((field) => {
    const id = `f-${command.type}-${field.name}`.replace(/[^\w-]/g, "_");
    const hint = field.prop.description || "";
    const label = el("label", { for: id }, field.name + (field.required ? "" : " (optional)"));
    let value = command.example[field.name];
    if (player) value = SELF.has(field.name) && field.kind === "text" ? player[0] : null;
    const input = inputFor(field, id, value);
    const wrap = el("div", { class: "field" }, label, input);
    if (hint) {
      input.setAttribute("aria-describedby", `${id}-hint`);
      wrap.append(el("small", { id: `${id}-hint` }, hint));
    }
    return wrap;
  });
}

/** The command as JSON from the form's fields; throws Error naming a field that is not. */
export function readCommand(command, form) {
  const out = { type: command.type };
  for (const field of command.fields) {
    const input = form.elements.namedItem(field.name);
    if (field.kind === "boolean") {
      out[field.name] = input.checked;
      continue;
    }
    const raw = input.value.trim();
    if (raw === "") continue;
    if (field.kind === "number") out[field.name] = Number(raw);
    else if (field.kind === "json") {
      try {
        out[field.name] = JSON.parse(raw);
      } catch {
        throw new Error(`${field.name}: not valid JSON`);
      }
    } else out[field.name] = raw;
  }
  return out;
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
