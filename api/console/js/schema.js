// Reading a ruleset's JSON Schema (GET /rulesets/{name}): what kind of value each field
// holds, looking through references and optional (`anyOf [X, null]`) wrappers, and the
// commands with names a person reads ("Add combatant", not "generic.add_combatant").

export function resolve(schema, defs) {
  let s = schema || {};
  while (s.$ref) s = { ...defs[s.$ref.split("/").pop()], ...withoutRef(s) };
  return s;
}

function withoutRef(s) {
  const { $ref, ...rest } = s;
  return rest;
}

/** "AddCombatant" or "duration_rounds" -> "Add combatant" / "duration rounds". */
export function words(name) {
  const spaced = String(name).replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced;
}

export function titled(name) {
  const w = words(name);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/**
 * The kind of a schema: enum, number, boolean, text, map (named entries), struct (fixed
 * fields), list, union (a choice between structs by their `type`), or any (a value the
 * form cannot break down, edited as JSON).  `nullable` says whether null is allowed.
 */
export function kindOf(schema, defs) {
  let s = resolve(schema, defs);
  let nullable = false;
  if (s.anyOf) {
    const others = s.anyOf.filter((a) => a.type !== "null");
    nullable = others.length < s.anyOf.length;
    // An optional choice of kinds (a declaration's major action) is `anyOf [union, null]`.
    const inner = others.length === 1 ? resolve(others[0], defs) : s;
    if (inner.discriminator) return { kind: "union", nullable, schema: { ...inner, description: s.description } };
    if (others.length === 1) s = { ...inner, description: s.description, examples: s.examples };
    else if (others.every((o) => ["string", "integer", "number"].includes(resolve(o, defs).type))) {
      return { kind: "scalar", nullable, schema: s };
    } else return { kind: "any", nullable, schema: s };
  }
  if (s.enum) return { kind: "enum", nullable, schema: s };
  if (s.type === "integer" || s.type === "number") return { kind: "number", nullable, schema: s };
  if (s.type === "boolean") return { kind: "boolean", nullable, schema: s };
  if (s.type === "string") return { kind: "text", nullable, schema: s };
  if (s.type === "array") return { kind: "list", nullable, schema: s };
  if (s.type === "object" && s.properties) return { kind: "struct", nullable, schema: s };
  if (s.type === "object" && s.additionalProperties) return { kind: "map", nullable, schema: s };
  return { kind: "any", nullable, schema: s };
}

/** The fields of a struct schema (every property but the `type` tag). */
export function fieldsOf(def, defs) {
  const required = new Set(def.required || []);
  return Object.entries(def.properties || {})
    .filter(([name]) => name !== "type")
    .map(([name, prop]) => ({ name, prop, required: required.has(name), ...kindOf(prop, defs) }));
}

/** The commands of a ruleset: [{type, title, description, fields, example, player}];
 * `player` says whether a player's token may send it (the service's list). */
export function commandsOf(info) {
  const defs = info.command_schema.$defs || {};
  const mapping = info.command_schema.discriminator.mapping;
  const examples = Object.fromEntries(info.commands.map((c) => [c.type, c.example]));
  const players = new Set(info.player_commands || []);
  return Object.entries(mapping).map(([type, ref]) => {
    const def = defs[ref.split("/").pop()];
    return {
      type,
      player: players.has(type),
      title: titled(def.title || type.split(".").pop()),
      description: (def.description || "").split("\n\n")[0],
      fields: fieldsOf(def, defs),
      example: examples[type] || {},
      defs,
    };
  });
}
