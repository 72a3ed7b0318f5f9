// The spectator overlay's settings, read from the link's fragment next to the table and
// token (#e=...&t=...&parts=tracker,log&size=large&entries=5), so a streamer sets up a
// browser source by its URL alone: which parts show, how large, how many log entries.

const PARTS = ["tracker", "log", "ledger", "stats"];
const SIZES = { small: "0.85rem", medium: "1rem", large: "1.3rem", huge: "1.7rem" };

/** Apply the fragment's overlay settings; returns how many log entries to show, if set. */
export function applyOverlay(params) {
  const body = document.body;
  const parts = (params.get("parts") || "").split(",").map((p) => p.trim()).filter((p) => PARTS.includes(p));
  for (const part of PARTS) {
    const section = document.getElementById(`${part}-section`);
    if (section) section.hidden = parts.length > 0 && !parts.includes(part);
  }
  const size = SIZES[params.get("size")] || null;
  body.style.fontSize = size || "";
  const entries = Number(params.get("entries"));
  return Number.isInteger(entries) && entries > 0 ? entries : null;
}
