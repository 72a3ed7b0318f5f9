// The create form's ruleset options (GET /rulesets lists each with its default and the
// reason for it).  An option left as it is goes out unset, so the service applies its
// own default; only what the GM changes is sent.  A checkbox starts at its default; every
// other option shows its default as a placeholder.

import { el } from "./dom.js";
import { words } from "./schema.js";

function shown(value) {
  if (value == null) return "none (unset)";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function inputFor(option, id) {
  const d = option.default;
  if (typeof d === "boolean") return el("input", { id, type: "checkbox", checked: d });
  if (d !== null && typeof d === "object") {
    return el("textarea", { id, rows: 2, spellcheck: false, placeholder: `default ${shown(d)} (JSON)` });
  }
  return el("input", {
    id, type: typeof d === "number" ? "number" : "text", autocomplete: "off",
    placeholder: d == null ? "no default" : `default ${shown(d)}`,
  });
}

function parse(option, input) {
  const d = option.default;
  if (typeof d === "boolean") return input.checked === d ? undefined : input.checked;
  const raw = input.value.trim();
  if (raw === "") return undefined;
  if (typeof d === "number" || (d == null && /^-?\d+(\.\d+)?$/.test(raw))) return Number(raw);
  if ((d !== null && typeof d === "object") || /^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new Error(`option ${option.key}: not valid JSON`);
    }
  }
  if (d == null && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

/** The options of one ruleset as form fields: { node, read() }.  `prefix` keeps the ids
 * of two such forms on one page apart (an encounter's options and a campaign's). */
export function optionsForm(ruleset, prefix = "opt", what = "Options") {
  const inputs = ruleset.options.map((option) => {
    const id = `${prefix}-${option.key}`;
    const input = inputFor(option, id);
    input.setAttribute("aria-describedby", `${id}-hint`);
    const label = el("label", { for: id }, words(option.key));
    const hint = el("small", { id: `${id}-hint` }, `Default: ${shown(option.default)}. ${option.description}`);
    const node = typeof option.default === "boolean"
      ? el("div", { class: "option" }, el("span", { class: "check" }, input, label), hint)
      : el("div", { class: "option" }, label, input, hint);
    return { option, input, node };
  });
  const node = inputs.length
    ? el("details", { class: "options", open: ruleset.options.some((o) => o.default == null && /required/i.test(o.description)) },
        el("summary", {}, `${what} of ${ruleset.title} (${inputs.length}, each with its default and why)`),
        inputs.map((i) => i.node))
    : el("p", { class: "hint" }, `${ruleset.title} has no options.`);
  return {
    node,
    read() {
      const out = {};
      for (const { option, input } of inputs) {
        const value = parse(option, input);
        if (value !== undefined) out[option.key] = value;
      }
      return out;
    },
  };
}
