// The ground of an encounter started from a campaign: the ruleset's own commands that
// lay areas, zones, features or hexes before anyone arrives, each filled in with the
// encounter's command form and listed in order; they go out with the start.

import { campaign, campaignGuarded } from "./campaign.js";
import { $, el } from "./dom.js";
import { commandForm } from "./forms.js";

const GROUND = /\.(add|define)_(zone|area|feature|hexe)s?$/;
let laid = [];
let form = null;

function groundCommands() {
  return campaign.commands.filter((c) => GROUND.test(c.type));
}

function showFields() {
  const command = groundCommands().find((c) => c.type === $("#ground-type").value);
  form = command ? commandForm(command, { state: () => ({}), own: null, prefix: "ground" }) : null;
  $("#ground-fields").replaceChildren(...(form ? form.nodes : []));
}

function drawLaid() {
  const titles = Object.fromEntries(campaign.commands.map((c) => [c.type, c.title]));
  $("#ground-list").replaceChildren(...laid.map((command, i) => el("li", {},
    `${titles[command.type]}: ${command.id || command.name || command.zone || ""} `,
    el("button", { type: "button", class: "small", onclick: () => { laid.splice(i, 1); drawLaid(); } }, `Remove ground ${i + 1}`))));
}

/** A campaign just opened: its ruleset's ground commands, none laid. */
export function resetGround() {
  laid = [];
  const commands = groundCommands();
  $("#encounter-ground").hidden = !commands.length;
  $("#ground-type").replaceChildren(...commands.map((c) => el("option", { value: c.type }, c.title)));
  $("#ground-type").onchange = showFields;
  showFields();
  drawLaid();
}

/** The ground laid so far, to send; emptied once an encounter started with it. */
export function takeGround(started = false) {
  const out = [...laid];
  if (started) { laid = []; drawLaid(); }
  return out;
}

export function wireGround() {
  $("#ground-add").addEventListener("click", () => campaignGuarded(async () => {
    if (!form) return;
    laid.push(form.read());
    showFields();
    drawLaid();
  }));
}
