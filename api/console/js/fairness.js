// Provably fair dice, checked in the browser with Web Crypto: the algorithm of
// docs/dice-and-fairness.md.  Die k of an epoch is HMAC-SHA256(seed, `${clientSeed}:${k}`)
// split into eight big-endian 32-bit words; the first word below 2^32 - 2^32 % sides gives
// the face word % sides + 1, else the message gets a `:j` suffix and the search goes on.

const encoder = new TextEncoder();

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function available() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

async function hmacKey(seedHex) {
  return crypto.subtle.importKey(
    "raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
}

async function face(key, clientSeed, k, sides) {
  const limit = 2 ** 32 - (2 ** 32 % sides);
  for (let j = 0; ; j += 1) {
    const msg = j === 0 ? `${clientSeed}:${k}` : `${clientSeed}:${k}:${j}`;
    const view = new DataView(await crypto.subtle.sign("HMAC", key, encoder.encode(msg)));
    for (let i = 0; i < 32; i += 4) {
      const word = view.getUint32(i, false);
      if (word < limit) return (word % sides) + 1;
    }
  }
}

/** The seeds of each epoch as the events publish them: commitments, client seed, seeds. */
export function epochs(events) {
  const out = new Map();
  const epoch = (n) => {
    if (!out.has(n)) out.set(n, {});
    return out.get(n);
  };
  for (const e of events) {
    const d = e.data;
    if (e.type === "dice.seed_committed") {
      Object.assign(epoch(d.epoch), {
        commitment: d.commitment, secretCommitment: d.secret_commitment, clientSeed: d.client_seed,
      });
    } else if (e.type === "dice.seed_revealed") {
      epoch(d.epoch).seed = d.seed;
      if (d.secret_seed) epoch(d.epoch).secretSeed = d.secret_seed;
    } else if (e.type === "dice.rolls_revealed") {
      for (const [n, seed] of Object.entries(d.secret_seeds || {})) epoch(Number(n)).secretSeed = seed;
    }
  }
  return out;
}

/**
 * The verdict on one roll of the ledger: "verified", "mismatch", "waiting" (its seed is
 * not published yet), "manual" (physical dice, nothing to recompute) or "secret".
 */
export async function verifyRoll(roll, seeds) {
  if (roll.source !== "server") return "manual";
  if (roll.redacted || !roll.dice) return "secret";
  const epoch = seeds.get(roll.epoch);
  const seed = epoch && (roll.hidden ? epoch.secretSeed : epoch.seed);
  if (!seed) return "waiting";
  const commitment = roll.hidden ? epoch.secretCommitment : epoch.commitment;
  if (hex(await crypto.subtle.digest("SHA-256", hexBytes(seed))) !== commitment) return "mismatch";
  const key = await hmacKey(seed);
  for (let i = 0; i < roll.dice.length; i += 1) {
    const die = roll.dice[i];
    if ((await face(key, epoch.clientSeed, roll.index + i, die.sides)) !== die.face) return "mismatch";
  }
  return "verified";
}
