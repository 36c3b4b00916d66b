// Console sign-in: password check, sessions, and slowing down guessing.
//
// - A session is a random 256-bit token in an HttpOnly cookie; the database keeps only its SHA-256,
//   so every replica sees it and a leaked table holds nothing usable. Every sign-in opens a new
//   session (no token from before sign-in is ever promoted: no session fixation).
// - Sessions last 12 hours from sign-in; sign-out deletes the row.
// - Failed sign-ins are counted per account and per client address, in the database (so guessing
//   across replicas is counted once). The first few failures are free; after them each failure
//   blocks the subject for twice as long as the previous one, up to 15 minutes. An account's count
//   clears on a successful sign-in; an address's after a quiet quarter of an hour.
import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { sessions, signInFailures, users, type User } from "../storage/schema.ts";
import { hashSecret } from "./keys.ts";
import { findUserByEmail } from "./members.ts";
import { dummyPasswordHash, MAX_PASSWORD_LENGTH, verifyPassword } from "./passwords.ts";

export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;
/** Failures a subject may have before each further one blocks it. */
export const FREE_FAILURES = { account: 5, address: 20 } as const;
export const MAX_BLOCK_MS = 15 * 60_000;
/** A subject's failures are forgotten after this long without one. */
export const FAILURE_MEMORY_MS = 15 * 60_000;

export type SignInResult =
  | { readonly outcome: "signed_in"; readonly user: User }
  | { readonly outcome: "invalid" }
  | { readonly outcome: "throttled"; readonly retryAfterSeconds: number };

/**
 * Checks the password; throttled subjects are refused before it is checked. The caller opens the
 * session (`openSession`) where it sets the cookie.
 */
export async function signIn(
  db: Queryable,
  input: { email: string; password: string; ip: string | null },
  now = new Date(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const subjects = [`email:${email}`, ...(input.ip ? [`ip:${input.ip}`] : [])];
  const blocked = await db
    .select({ blockedUntil: signInFailures.blockedUntil })
    .from(signInFailures)
    .where(and(sql`${signInFailures.subject} in ${subjects}`, gt(signInFailures.blockedUntil, now)));
  if (blocked.length > 0) {
    const until = Math.max(...blocked.map((row) => row.blockedUntil!.getTime()));
    return { outcome: "throttled", retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
  }
  const user = email.length <= 320 ? await findUserByEmail(db, email) : undefined;
  // An unknown email costs the same hash as a known one: timing does not tell which accounts exist.
  const valid =
    input.password.length <= MAX_PASSWORD_LENGTH &&
    (await verifyPassword(input.password, user?.passwordHash ?? dummyPasswordHash()));
  if (!user || !valid) {
    await recordFailure(db, `email:${email}`, FREE_FAILURES.account, now);
    if (input.ip) await recordFailure(db, `ip:${input.ip}`, FREE_FAILURES.address, now);
    return { outcome: "invalid" };
  }
  await db.delete(signInFailures).where(eq(signInFailures.subject, `email:${email}`));
  return { outcome: "signed_in", user };
}

/** A new session for the user; returns the token for the cookie. */
export async function openSession(db: Queryable, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    idHash: hashSecret(token),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
  return token;
}

async function recordFailure(db: Queryable, subject: string, free: number, now: Date): Promise<void> {
  const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS);
  // One statement, so concurrent failures on several replicas all count.
  await db.execute(sql`
    insert into ${signInFailures} (subject, failures, last_failed_at, blocked_until)
    values (${subject}, 1, ${now}, null)
    on conflict (subject) do update set
      failures = case when ${signInFailures.lastFailedAt} < ${forgetBefore} then 1 else ${signInFailures.failures} + 1 end,
      last_failed_at = ${now},
      blocked_until = case
        when ${signInFailures.lastFailedAt} < ${forgetBefore} or ${signInFailures.failures} + 1 <= ${free} then null
        else ${now}::timestamptz + least(${MAX_BLOCK_MS}, 1000 * power(2, ${signInFailures.failures} + 1 - ${free} - 1)) * interval '1 millisecond'
      end`);
}

/** The user a session token belongs to, while the session lasts. */
export async function findSession(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<{ user: User; idHash: string; createdAt: Date } | undefined> {
  if (token.length > 128) return undefined;
  const idHash = hashSecret(token);
  const [row] = await db
    .select({ user: users, createdAt: sessions.createdAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ? { ...row, idHash } : undefined;
}

export async function signOut(db: Queryable, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, hashSecret(token)));
}

/** Housekeeping: expired sessions and failure counters nobody needs any more. */
export async function purgeExpiredSessions(db: Queryable, now = new Date()): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS);
  await db
    .delete(signInFailures)
    .where(
      and(
        lt(signInFailures.lastFailedAt, forgetBefore),
        or(sql`${signInFailures.blockedUntil} is null`, lt(signInFailures.blockedUntil, now)),
      ),
    );
}
