// Inputs a person can fill for any value a command holds, built from its JSON Schema:
// a number box, a checkbox, a list to pick from, rows of named entries (a sheet's attacks,
// stats), a set of fixed fields (a modifier), a choice of kind (a ruling).  Structured
// values also offer "edit as JSON" as an escape hatch.  Examples are only ever shown as
// placeholders: nothing goes out that the person did not enter or choose.
//
// Every editor is { node, read() }: read() gives the value, or undefined to leave the
// field out of the command (the service then uses its default).

import { el } from "./dom.js";
import { fieldsOf, kindOf, resolve, titled, words } from "./schema.js";

const OTHER = "\u0000other";

function sample(value) {
  if (value == null || value === "") return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function scalarInput(kind, opts) {
  const s = kind.schema;
  const example = opts.example ?? (s.examples ? s.examples[0] : null);
  const input = el("input", {
    id: opts.id,
    type: kind.kind === "number" ? "number" : "text",
    placeholder: example != null && typeof example !== "object" ? `e.g. ${example}` : null,
    autocomplete: "off",
    "aria-label": opts.aria || null,
  });
  let node = input;
  let refresh = null;
  if (opts.suggest) {
    // A new value that may repeat one the encounter has (a new combatant's side).
    const list = el("datalist", { id: `${opts.id}-known` });
    input.setAttribute("list", list.id);
    refresh = () => list.replaceChildren(...(opts.suggest() || []).map((o) => el("option", { value: o.value }, o.label)));
    refresh();
    node = el("span", { class: "suggest" }, input, list);
  }
  if (kind.kind === "number") {
    input.step = s.type === "integer" ? "1" : "any";
    input.inputMode = "numeric";
  }
  return {
    node,
    input,
    refresh,
    read() {
      const raw = input.value.trim();
      if (raw === "") return undefined;
      if (kind.kind === "number") return Number(raw);
      if (kind.kind === "scalar" && /^-?\d+$/.test(raw) && !s.anyOf.some((o) => o.type === "string")) return Number(raw);
      return raw;
    },
    set(value) {
      input.value = value == null ? "" : String(value);
    },
  };
}

/** A value picked from what the encounter holds (its combatants, zones, a sheet's
 * attacks), with "other…" for one the list does not know yet. */
function picker(kind, opts) {
  const free = scalarInput(kind, { ...opts, id: `${opts.id}-other`, aria: `${opts.label} (other)` });
  free.node.hidden = true;
  const select = el("select", { id: opts.id, "aria-label": opts.aria || null });
  const wrap = el("span", { class: "picker" }, select, free.node);
  function fill() {
    const keep = select.value;
    const options = opts.choices() || [];
    select.replaceChildren(
      el("option", { value: "" }, opts.required ? "— choose —" : "(none)"),
      ...options.map((o) => el("option", { value: o.value }, o.label)),
      el("option", { value: OTHER }, "other…"),
    );
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
    free.node.hidden = select.value !== OTHER;
  }
  select.addEventListener("change", () => {
    free.node.hidden = select.value !== OTHER;
    if (!free.node.hidden) free.node.focus();
  });
  fill();
  return {
    node: wrap,
    input: select,
    refresh: fill,
    read() {
      if (select.value === OTHER) return free.read();
      return select.value === "" ? undefined : select.value;
    },
    set(value) {
      fill();
      if ([...select.options].some((o) => o.value === value)) select.value = value;
      else if (value != null) {
        select.value = OTHER;
        free.set(value);
      }
      free.node.hidden = select.value !== OTHER;
    },
  };
}

/** Several values picked from the encounter (who rolls initiative, the turn order). */
function checklist(opts) {
  const box = el("fieldset", { class: "checklist", id: opts.id });
  let boxes = [];
  function fill() {
    const keep = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
    const options = opts.choices() || [];
    boxes = options.map((o) => el("input", { type: "checkbox", value: o.value, id: `${opts.id}-${o.value}`.replace(/[^\w-]/g, "_"), checked: keep.has(o.value) }));
    box.replaceChildren(
      el("legend", {}, opts.label),
      ...options.map((o, i) => el("span", { class: "check" }, boxes[i], el("label", { for: boxes[i].id }, o.label))),
    );
  }
  fill();
  return {
    node: box,
    refresh: fill,
    read() {
      const picked = boxes.filter((b) => b.checked).map((b) => b.value);
      return picked.length ? picked : undefined;
    },
    set(values) {
      for (const b of boxes) b.checked = (values || []).includes(b.value);
    },
  };
}

function enumSelect(kind, opts) {
  const select = el("select", { id: opts.id, "aria-label": opts.aria || null });
  select.append(el("option", { value: "" }, opts.required && !kind.nullable ? "— choose —" : "(default)"));
  for (const option of kind.schema.enum) select.append(el("option", { value: String(option) }, words(option)));
  return {
    node: select,
    input: select,
    read() {
      if (select.value === "") return undefined;
      const match = kind.schema.enum.find((o) => String(o) === select.value);
      return match === undefined ? select.value : match;
    },
    set(value) {
      select.value = value == null ? "" : String(value);
    },
  };
}

/** A yes/no value, starting at its default (a new combatant is a PC unless unticked);
 * left out of the command while it is at that default. */
function checkbox(kind, opts) {
  const initial = kind.schema.default === true;
  const input = el("input", { id: opts.id, type: "checkbox", "aria-label": opts.aria || null, checked: initial });
  return {
    node: input, input,
    read: () => (opts.required || input.checked !== initial ? input.checked : undefined),
    set: (v) => { input.checked = Boolean(v); },
  };
}

/** Rows of items (a list) or of named entries (a map), each with a Remove button. */
function rows(kind, opts, keyed) {
  const s = kind.schema;
  const itemSchema = keyed ? s.additionalProperties : s.items || {};
  const list = el("ul", { class: "rows" });
  const entries = [];
  let count = 0;
  const noun = keyed ? "entry" : "item";
  function add(key, value) {
    count += 1;
    const rowId = `${opts.id}-${count}`;
    const keyInput = keyed
      ? el("input", { id: `${rowId}-key`, "aria-label": `${opts.label}: name`, placeholder: "name", autocomplete: "off" })
      : null;
    const item = editorFor(itemSchema, opts.defs, { id: `${rowId}-value`, label: `${opts.label} ${keyed ? "value" : "item"}`, aria: `${opts.label}: ${keyed ? "value" : `item ${count}`}`, required: true, choices: opts.itemChoices || null, choicesOf: opts.choicesOf });
    const entry = { keyInput, item };
    const row = el("li", { class: "row" }, keyInput, item.node, el("button", {
      type: "button", class: "small", "aria-label": `Remove this ${noun} of ${opts.label}`,
      onclick: () => { entries.splice(entries.indexOf(entry), 1); row.remove(); },
    }, "✕"));
    entries.push(entry);
    list.append(row);
    if (keyInput && key != null) keyInput.value = key;
    if (value !== undefined && item.set) item.set(value);
    return entry;
  }
  const addButton = el("button", { type: "button", class: "small", onclick: () => {
    const entry = add();
    (entry.keyInput || entry.item.input || entry.item.node).focus?.();
  } }, `Add ${noun} to ${opts.label}`);
  return {
    node: el("div", { class: "structured" }, list, addButton),
    read() {
      if (!entries.length) return undefined;
      if (!keyed) return entries.map((e) => e.item.read()).filter((v) => v !== undefined);
      const out = {};
      for (const e of entries) {
        const key = e.keyInput.value.trim();
        if (!key) continue;
        const value = e.item.read();
        if (value !== undefined) out[key] = value;
      }
      return Object.keys(out).length ? out : undefined;
    },
    refresh() {
      for (const e of entries) if (e.item.refresh) e.item.refresh();
    },
    set(value) {
      list.replaceChildren();
      entries.length = 0;
      if (keyed) for (const [k, v] of Object.entries(value || {})) add(k, v);
      else for (const v of value || []) add(null, v);
    },
  };
}

/** A fixed set of fields (a modifier: label and value; a sheet's weapon).  `tag` is
 * [property, value] naming the kind of a union's variant. */
function struct(schema, opts, tag = null) {
  const fields = fieldsOf(schema, opts.defs).filter((f) => !tag || f.name !== tag[0]).map((f) => {
    const id = `${opts.id}-${f.name}`;
    const choices = opts.choicesOf ? opts.choicesOf(f) : null;
    const editor = editorFor(f.prop, opts.defs, { id, label: `${opts.label} ${words(f.name)}`, required: f.required, choices, choicesOf: opts.choicesOf });
    const label = el("label", { for: editor.input ? id : null }, words(f.name) + (f.required ? "" : " (optional)"));
    if (!editor.input) editor.node.setAttribute("aria-label", `${opts.label} ${words(f.name)}`);
    return { f, editor, node: el("div", { class: "subfield" }, label, editor.node) };
  });
  return {
    node: el("div", { class: "struct" }, fields.map((x) => x.node)),
    read() {
      const out = tag ? { [tag[0]]: tag[1] } : {};
      let any = false;
      for (const { f, editor } of fields) {
        const v = editor.read();
        if (v === undefined) continue;
        out[f.name] = v;
        any = true;
      }
      return any || tag ? out : undefined;
    },
    set(value) {
      for (const { f, editor } of fields) if (editor.set && value && f.name in value) editor.set(value[f.name]);
    },
    refresh() {
      for (const { editor } of fields) if (editor.refresh) editor.refresh();
    },
  };
}

/** A choice between kinds of value (a ruling: set a value, add a condition ...). */
function union(kind, opts) {
  const { mapping, propertyName } = kind.schema.discriminator;
  const select = el("select", { id: opts.id, "aria-label": opts.aria || null });
  select.append(el("option", { value: "" }, "— choose —"));
  for (const tag of Object.keys(mapping)) select.append(el("option", { value: tag }, titled(tag)));
  const body = el("div", { class: "variant" });
  let current = null;
  select.addEventListener("change", () => {
    const tag = select.value;
    current = tag ? struct(resolve({ $ref: mapping[tag] }, opts.defs), { ...opts, id: `${opts.id}-${tag}` }, [propertyName, tag]) : null;
    body.replaceChildren(current ? current.node : "");
  });
  return {
    node: el("div", { class: "union" }, select, body),
    input: select,
    read: () => (current ? current.read() : undefined),
    set(value) {
      select.value = value?.[propertyName] || "";
      select.dispatchEvent(new Event("change"));
      if (current) current.set(value);
    },
    refresh: () => current?.refresh(),
  };
}

/** The JSON escape hatch around a structured editor. */
function withJson(inner, opts) {
  const area = el("textarea", {
    id: `${opts.id}-json`, rows: 3, spellcheck: false, hidden: true,
    "aria-label": `${opts.label} as JSON`,
    placeholder: opts.example != null ? `e.g. ${sample(opts.example)}` : null,
  });
  const toggle = el("input", { type: "checkbox", id: `${opts.id}-as-json` });
  toggle.addEventListener("change", () => {
    area.hidden = !toggle.checked;
    inner.node.hidden = toggle.checked;
  });
  return {
    node: el("div", { class: "with-json" }, inner.node, area,
      el("span", { class: "check json-toggle" }, toggle, el("label", { for: toggle.id }, `edit ${opts.label} as JSON`))),
    input: inner.input,
    read() {
      if (!toggle.checked) return inner.read();
      const raw = area.value.trim();
      if (!raw) return undefined;
      try {
        return JSON.parse(raw);
      } catch {
        throw new Error(`${opts.label}: not valid JSON`);
      }
    },
    set: inner.set,
    refresh: inner.refresh,
  };
}

/**
 * An editor for one value.  opts: id, label (what a person calls the value), aria (an
 * accessible name when no <label> points at the input), required, example (shown as a
 * placeholder), choices (a function giving [{value, label}] the encounter offers),
 * multiple (pick several), defs (the schema's definitions).
 */
export function editorFor(schema, defs, opts) {
  opts = { ...opts, defs };
  const kind = kindOf(schema, defs);
  if (kind.kind === "list" && opts.choices && ["string", undefined].includes(resolve(kind.schema.items, defs).type)) {
    return checklist(opts);
  }
  if ((kind.kind === "text" || kind.kind === "scalar") && opts.choices?.suggest) {
    return scalarInput(kind, { ...opts, suggest: opts.choices });
  }
  if ((kind.kind === "text" || kind.kind === "scalar") && opts.choices) return picker(kind, opts);
  switch (kind.kind) {
    case "enum": return enumSelect(kind, opts);
    case "boolean": return checkbox(kind, opts);
    case "number": case "text": case "scalar": return scalarInput(kind, opts);
    case "list": return withJson(rows(kind, opts, false), opts);
    case "map": return withJson(rows(kind, opts, true), opts);
    case "struct": return withJson(struct(kind.schema, opts), opts);
    case "union": return withJson(union(kind, opts), opts);
    default: {
      const area = el("textarea", { id: opts.id, rows: 2, spellcheck: false, placeholder: opts.example != null ? `e.g. ${sample(opts.example)}` : null });
      return {
        node: area, input: area,
        read() {
          const raw = area.value.trim();
          if (!raw) return undefined;
          try { return JSON.parse(raw); } catch { throw new Error(`${opts.label}: not valid JSON`); }
        },
        set: (v) => { area.value = v == null ? "" : JSON.stringify(v); },
      };
    }
  }
}
