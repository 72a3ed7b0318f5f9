// Acting: the command picker (by title; a player sees only commands that act for them),
// the command's form, sending it or asking the GM, the turn buttons and the buttons for
// a combatant picked in the tracker.  While the page looks back at an old version every
// command is held: it would go to the live encounter, not to the version on screen.

import { actionsFor, advancing, endingTurn, forPlayer } from "./actions.js";
import { actorField, roster, sheetPart, sheetParts } from "./choices.js";
import { $, el } from "./dom.js";
import { commandForm, parseDice } from "./forms.js";
import { ctx, guarded, isGm } from "./page.js";
import { turnOf } from "./tracker.js";

let form = null;
const SHEET_FIELDS = ["using", "weapon", "maneuver", "spell"];

function offered() {
  return isGm() ? ctx.commands : ctx.commands.filter(forPlayer);
}

function current() {
  return ctx.commands.find((c) => c.type === $("#command-type").value);
}

export function buildPicker() {
  const select = $("#command-type");
  select.replaceChildren(...offered().map((c) => el("option", { value: c.type }, c.title)));
  // A player starts on a command that uses their sheet (an attack with a weapon on it).
  const fromSheet = offered().find((c) => c.fields.some((f) => ["using", "weapon"].includes(f.name)));
  if (!isGm() && fromSheet) select.value = fromSheet.type;
  select.onchange = showFields;
  showFields();
}

function showFields() {
  const command = current();
  $("#command-help").textContent = command ? command.description : "";
  form = command ? commandForm(command, { state: () => ctx.game, own: isGm() ? null : ctx.who.combatants }) : null;
  $("#command-fields").replaceChildren(...(form ? form.nodes : []));
}

/** Open `command`'s form with `field` holding `value` (from the tracker's buttons). */
export function openCommand(command, field, value) {
  $("#command-type").value = command.type;
  showFields();
  form.set(field, value);
  const first = $("#command-fields").querySelector("select:not([disabled]), input:not([type=hidden]), textarea");
  $("#command-form").scrollIntoView({ block: "nearest" });
  if (first) first.focus();
}

async function send(event) {
  event.preventDefault();
  if (ctx.at != null) return;
  await guarded(async () => {
    const body = { command: form.read() };
    const dice = parseDice($("#manual-dice").value);
    if (dice) body.manual_dice = dice;
    if ($("#hidden-roll").checked) body.hidden = true;
    if (event.submitter && event.submitter.id === "ask-gm") {
      const note = $("#request-note").value.trim();
      if (note) body.note = note;
      delete body.hidden;
      await ctx.api.write("/requests", body);
      $("#request-note").value = "";
    } else {
      await ctx.api.write("/commands", body);
    }
    $("#manual-dice").value = "";
    $("#hidden-roll").checked = false;
    ctx.refresh();
  });
}

function sendNow(command, fields = {}) {
  return guarded(async () => {
    await ctx.api.write("/commands", { command: { type: command.type, ...fields } });
    ctx.refresh();
  });
}

/** What a button sends (its command and the fields it fills), as text to compare. */
function does(command, fields = {}) {
  return JSON.stringify([command.type, fields]);
}

/** What a set of buttons does and says: the same text, the same buttons. */
function doings(nodes) {
  return nodes
    .flatMap((node) => [node, ...node.querySelectorAll("[data-does]")])
    .map((node) => `${node.dataset.does || ""} ${node.textContent}`)
    .join("\n");
}

/** The turn buttons: the GM's next turn (or phase, or round), a player's end of turn. */
function turnButtons() {
  const { turn } = turnOf(ctx.game);
  const names = Object.fromEntries(Object.entries(ctx.game.combatants || ctx.game.characters || {}).map(([id, c]) => [id, c.name || id]));
  const ending = endingTurn(ctx.commands);
  const out = [];
  if (isGm()) {
    for (const command of advancing(ctx.commands)) {
      out.push(el("button", { type: "button", class: "primary", "data-does": does(command), onclick: () => sendNow(command) }, command.title));
    }
    if (ending && turn && ending.fields.length) {
      const field = ending.fields[0].name;
      out.push(el("button", { type: "button", "data-does": does(ending, { [field]: turn }), onclick: () => sendNow(ending, { [field]: turn }) }, `End ${names[turn] || turn}'s turn`));
    }
  } else if (ending && turn && ctx.who.combatants.includes(turn)) {
    const fields = ending.fields.length ? { [ending.fields[0].name]: turn } : {};
    out.push(el("button", { type: "button", class: "primary", "data-does": does(ending, fields), onclick: () => sendNow(ending, fields) }, "End my turn"));
  }
  return out;
}

/** A player's sheet as buttons: each attack, weapon, check or maneuver of their own
 * combatants opens the command that uses it, with who acts and what they use filled in. */
function sheetButtons() {
  if (isGm() || ctx.who.role !== "player") return [];
  const out = [];
  for (const command of offered()) {
    const acting = actorField(command);
    const entry = command.fields.find((f) => SHEET_FIELDS.includes(f.name));
    if (!acting || !entry) continue;
    for (const id of ctx.who.combatants) {
      const who = roster(ctx.game).find((c) => c.id === id);
      for (const part of sheetParts(command, entry.name)) {
        const named = sheetPart(who, part) || {};
        for (const name of Array.isArray(named) ? named.map((n) => (typeof n === "object" ? n.name : n)) : Object.keys(named)) {
          out.push(el("button", { type: "button", "data-does": does(command, { [acting.name]: id, [entry.name]: name }), onclick: () => {
            openCommand(command, acting.name, id);
            form.set(entry.name, name);
          } }, `${command.title}: ${name}${ctx.who.combatants.length > 1 ? ` (${who.name || id})` : ""}`));
        }
      }
    }
  }
  return out.length ? [el("div", { class: "sheet-buttons", role: "group", "aria-label": "From your sheet" }, el("h4", {}, "From your sheet"), out)] : [];
}

/** Redraw what depends on the game shown: pickers, turn buttons, the picked combatant. */
export function syncActions() {
  const looking = ctx.at != null;
  $("#command-form fieldset").disabled = looking;
  $("#looking-back").hidden = !looking;
  const buttons = looking ? [] : [...turnButtons(), ...sheetButtons()];
  const holder = $("#turn-buttons");
  const drawn = doings(buttons);
  // Redrawn only when they would change: a button replaced under the pointer between
  // press and release takes no click, and every live update would otherwise redraw them.
  if (holder.dataset.drawn !== drawn) {
    holder.replaceChildren(...buttons);
    holder.dataset.drawn = drawn;
  }
  const panel = ctx.picked && !looking ? actionsFor(ctx.picked, ctx.game, offered(), openCommand) : null;
  $("#act-on").replaceChildren(...(panel ? [panel] : []));
  if (form && !looking) form.refresh();
}

export function wireCommands() {
  $("#command-form").addEventListener("submit", send);
}
