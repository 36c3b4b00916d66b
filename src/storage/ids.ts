// Resource ids: a type prefix and random base62, e.g. `prj_4fT9kQ2mX7vB1nL8cR5dW3sZ`.
// Random rather than sequential so that ids reveal neither volume nor order and cannot be guessed.
import { randomFillSync } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// The largest multiple of 62 that fits in a byte: bytes at or above it are discarded, so every
// character is equally likely (a plain `byte % 62` would favour the first 8 characters).
const UNBIASED_LIMIT = 256 - (256 % 62);

/** `length` characters drawn uniformly from [0-9A-Za-z] with a cryptographic generator. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // ~3% of bytes are rejected.
    const byte = randomByte();
    if (byte < UNBIASED_LIMIT) out += BASE62[byte % 62];
  }
  return out;
}

// Random bytes are drawn 4 KiB at a time (as Node does for randomUUID): one call into the system's
// generator serves ~150 ids instead of one, which matters for the id every request gets.
const entropy = Buffer.alloc(4096);
let entropyUsed = entropy.length;

function randomByte(): number {
  if (entropyUsed === entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  return entropy[entropyUsed++]!;
}

export const ID_RANDOM_LENGTH = 24;

export type IdPrefix =
  "ws" | "key" | "prj" | "run" | "dpl" | "ver" | "file" | "we" | "evt" | "dlv" | "inv" | "req" | "usr" | "pbc" | "grt";

/** A new id: `newId("prj")` → `prj_` and 24 random base62 characters (~143 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_RANDOM_LENGTH)}`;
}

/** `length` characters drawn uniformly from [0-9a-z]: for DNS labels, which are case-insensitive. */
export function randomBase36(length: number): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  let out = "";
  while (out.length < length) {
    // 252 is the largest multiple of 36 under 256: bytes at or above it would bias the result.
    const byte = randomByte();
    if (byte < 252) out += alphabet[byte % 36];
  }
  return out;
}
