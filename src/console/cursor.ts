// Opaque "next page" values for the console's lists: the position of the last row shown, as
// base64url JSON, signed with an HMAC under the server's CSRF secret (one purpose label per list),
// so a value that was altered, truncated or made up is refused (400) rather than queried.
import { createHmac, timingSafeEqual } from "node:crypto";

export class CursorError extends Error {
  constructor() {
    super("This page link is damaged or was changed. Go back to the first page and try again.");
    this.name = "CursorError";
  }
}

const SIGNATURE_LENGTH = 22; // 128 bits, base64url

function sign(secret: string, purpose: string, payload: string): string {
  return createHmac("sha256", secret).update(`console-cursor:${purpose}:${payload}`).digest("base64url").slice(0, SIGNATURE_LENGTH);
}

export function encodeCursor(secret: string, purpose: string, value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
  return `${payload}.${sign(secret, purpose, payload)}`;
}

/** The value `encodeCursor` signed, checked by `valid`; CursorError for anything else. */
export function decodeCursor<T>(secret: string, purpose: string, cursor: string, valid: (value: unknown) => value is T): T {
  if (cursor.length > 1000) throw new CursorError();
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw new CursorError();
  const expected = Buffer.from(sign(secret, purpose, payload));
  const actual = Buffer.from(signature);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw new CursorError();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw new CursorError();
  }
  if (!valid(value)) throw new CursorError();
  return value;
}

/** A time and an id, the position of keyset pagination; for `decodeCursor`. */
export interface PositionValue {
  readonly at: string;
  readonly id: string | number;
}

export function isPosition(value: unknown): value is PositionValue {
  if (typeof value !== "object" || value === null) return false;
  const { at, id } = value as Record<string, unknown>;
  return (
    typeof at === "string" &&
    !Number.isNaN(Date.parse(at)) &&
    ((typeof id === "string" && id.length > 0 && id.length < 100) || (typeof id === "number" && Number.isSafeInteger(id) && id > 0))
  );
}

/** The `after` query value of a list of the API's resources (created_at and id), checked. */
export function pageAfter(secret: string, purpose: string, value: string | null): { created_at: string; id: string } | undefined {
  if (value === null || value === "") return undefined;
  const position = decodeCursor(secret, purpose, value, isPosition);
  if (typeof position.id !== "string") throw new CursorError();
  return { created_at: new Date(position.at).toISOString(), id: position.id };
}

export function pageToken(secret: string, purpose: string, next: { created_at: string; id: string }): string {
  return encodeCursor(secret, purpose, { at: next.created_at, id: next.id });
}
