// Inviting: the GM mints a player token bound to combatants picked from the encounter's
// list (so a name typed instead of an id cannot slip through), a spectator or a co-GM
// token; each link gets a copy button and opens in a new tab, so the GM's own tab stays
// on the table.  The list of tokens shows every token with a Revoke button.

import { roster } from "./choices.js";
import { $, el } from "./dom.js";
import { ctx, guarded, linkFor } from "./page.js";

/** A copy button for the text of `input`. */
export function copyButton(input, what) {
  return el("button", {
    type: "button", class: "small",
    onclick: async (event) => {
      const button = event.currentTarget;
      try {
        await navigator.clipboard.writeText(input.value);
        button.textContent = "Copied";
      } catch {
        input.select();
        button.textContent = "Select and copy (Ctrl+C)";
      }
      setTimeout(() => { button.textContent = `Copy ${what}`; }, 2500);
    },
  }, `Copy ${what}`);
}

function bindable() {
  const game = ctx.game || {};
  // Aeonis binds players to sides; every other ruleset to combatants.
  if (game.sides && typeof game.sides === "object" && !game.combatants && !game.characters) {
    return Object.entries(game.sides).map(([id, s]) => ({ id, name: s.name || id }));
  }
  return roster(game).map((c) => ({ id: c.id, name: c.name || c.id }));
}

/** The combatants a player token may be bound to, as checkboxes. */
export function drawBindable() {
  const box = $("#mint-combatants");
  const keep = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  const list = bindable();
  box.replaceChildren(
    el("legend", {}, "Acts for (player only)"),
    ...(list.length ? list.map((c) => {
      const id = `mint-${c.id}`.replace(/[^\w-]/g, "_");
      return el("span", { class: "check" },
        el("input", { type: "checkbox", id, value: c.id, checked: keep.has(c.id) }),
        el("label", { for: id }, c.name === c.id ? c.id : `${c.name} (${c.id})`));
    }) : [el("p", { class: "hint" }, "No combatants yet: add them first.")]),
  );
}

function minted(link, label) {
  const id = `link-${Date.now()}`;
  const input = el("input", { id, value: link, readonly: true, "aria-label": `Link for ${label}` });
  return el("li", { class: "minted" },
    el("strong", {}, label), " ",
    el("a", { href: link, target: "_blank", rel: "noopener noreferrer", class: "minted-link" }, "open in a new tab"),
    input, copyButton(input, "link"), qrCode(link, label));
}

/** The link as a QR code drawn by the service; the link goes in the body, not a URL. */
export function qrCode(link, label) {
  const img = el("img", { class: "qr", alt: `QR code of the link for ${label}`, hidden: true });
  fetch("/console/qr", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: link }),
  }).then((r) => (r.ok ? r.blob() : null)).then((blob) => {
    if (!blob) return;
    img.src = URL.createObjectURL(blob);
    img.hidden = false;
  }).catch(() => {});
  return img;
}

async function mint(event) {
  event.preventDefault();
  await guarded(async () => {
    const role = $("#mint-role").value;
    const combatants = [...$("#mint-combatants").querySelectorAll("input:checked")].map((i) => i.value);
    const label = $("#mint-label").value.trim() || null;
    const made = await ctx.api.request("POST", ctx.api.path("/tokens"), {
      role, combatants: role === "player" ? combatants : [], label,
    });
    const link = linkFor(ctx.api.encounterId, made.token);
    const who = label || (role === "player" ? `player of ${combatants.join(", ")}` : role);
    $("#mint-links").prepend(minted(link, who));
    await drawTokens();
  });
}

async function revoke(tokenId) {
  await guarded(async () => {
    await ctx.api.request("DELETE", ctx.api.path(`/tokens/${encodeURIComponent(tokenId)}`));
    await drawTokens();
  });
}

export async function drawTokens() {
  const list = await ctx.api.get(ctx.api.path("/tokens"));
  $("#token-list").replaceChildren(el("ul", { class: "tokens" }, list.tokens.map((t) => el("li", { "data-token": t.token_id },
    `${t.role}${t.combatants && t.combatants.length ? ` of ${t.combatants.join(", ")}` : ""}${t.label ? ` · ${t.label}` : ""}`,
    t.revoked_at ? el("span", { class: "badge" }, " revoked") : el("button", { type: "button", class: "small", onclick: () => revoke(t.token_id) }, `Revoke ${t.label || t.token_id}`)))));
}

export function wireInvites() {
  $("#mint-form").addEventListener("submit", mint);
  $("#tokens-panel").addEventListener("toggle", () => {
    if ($("#tokens-panel").open) {
      drawBindable();
      guarded(drawTokens);
    }
  });
  $("#gm-link-copy").replaceWith(copyButton($("#gm-link"), "my GM link"));
}
