// Password hashing for console sign-in: scrypt (memory-hard, in Node's standard library), a random
// 16-byte salt per password, parameters stored with the hash so they can be raised later without
// invalidating what is stored. Stored form: `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * OWASP's minimum for scrypt in its 32 MiB form (N=2^15, r=8, p=3; equivalent to N=2^17, p=1 at a
 * quarter of the memory): about half a second of one core per hash here. Operators may raise it
 * (PASSWORD_HASH_COST); test suites lower it, since they create and sign in hundreds of users.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
let COST: ScryptCost = DEFAULT_SCRYPT_COST;

/** The cost of hashes made from now on (stored hashes keep theirs: the parameters are stored with them). */
export function setPasswordHashCost(cost: ScryptCost): void {
  COST = cost;
  dummyHash = undefined;
}
const KEY_LENGTH = 32;
/** Passwords longer than this are refused rather than hashed: scrypt's cost grows with input, and no one types more. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MIN_PASSWORD_LENGTH = 12;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** Whether `password` matches `stored`; false for a malformed stored value. Constant-time comparison. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash || password.length > MAX_PASSWORD_LENGTH) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummyHash: string | undefined;
/** A hash of nothing anyone knows, at the current cost: verified against when the email is unknown, so a sign-in takes as long either way. */
export function dummyPasswordHash(): string {
  dummyHash ??= [
    "scrypt",
    COST.N,
    COST.r,
    COST.p,
    randomBytes(16).toString("base64url"),
    randomBytes(KEY_LENGTH).toString("base64url"),
  ].join("$");
  return dummyHash;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.includes("\u0000")) return "the password must not contain NUL characters";
  return undefined;
}
