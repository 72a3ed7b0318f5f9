// What the page's modules share: the open table (its API client, who is looking, the
// ruleset's commands, the game as shown) and the ways to tell the person what happened.

import { Problem } from "./api.js";
import { $, el } from "./dom.js";

export const ctx = {
  api: null, who: null, commands: [], head: 0, at: null, stop: null, game: {},
  fullLog: [], secretRolls: new Set(), timer: null, generation: 0, picked: null,
};

export function isGm() {
  return Boolean(ctx.who) && (ctx.who.role === "gm" || ctx.who.role === "service");
}

export function setStatus(text) {
  $("#status").textContent = text;
}

function words(e) {
  return typeof e === "string" ? e : [e.loc, e.msg, e.message, e.detail].filter(Boolean).join(": ") || JSON.stringify(e);
}

/** The service's refusal (or a form's error) in `where`, the page's alert region. */
export function showProblem(error, where = "#problem") {
  const box = $(where);
  box.replaceChildren();
  if (!error) return;
  const title = error instanceof Problem ? `Refused (${error.status})` : "Not sent";
  box.append(el("strong", {}, `${title}: `), el("span", { class: "detail" }, error.message));
  const errors = error instanceof Problem ? error.doc.errors : null;
  if (Array.isArray(errors)) box.append(el("ul", {}, errors.map((e) => el("li", {}, words(e)))));
}

export async function guarded(action, where = "#problem") {
  showProblem(null, where);
  try {
    await action();
  } catch (error) {
    showProblem(error, where);
  }
}

export function linkFor(encounterId, token) {
  return `${location.origin}/console/#e=${encounterId}&t=${encodeURIComponent(token)}`;
}
