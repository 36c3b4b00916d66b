import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { onEmbeddedDatabase, useStorage } from "../../test/support/database.ts";
import { signInFailures } from "../storage/schema.ts";
import { addMember } from "./members.ts";
import {
  FAILURE_MEMORY_MS,
  FREE_FAILURES,
  findSession,
  openSession,
  purgeExpiredSessions,
  SESSION_LIFETIME_MS,
  signIn,
  signOut,
} from "./sessions.ts";
import { createWorkspace } from "./workspaces.ts";

const T0 = new Date("2026-11-23T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const password = "a long enough password";

onEmbeddedDatabase("sign-in sessions", (driver) => {
  const storage = useStorage(driver);
  const setUp = async () => {
    const { db } = storage();
    const workspace = await createWorkspace(db, { slug: "acme" });
    return (await addMember(db, { workspaceId: workspace.id, email: "ana@example.com", role: "owner", password })).user;
  };

  it("signs in with the right password only; the session lasts 12 hours and ends at sign-out", async () => {
    const { db } = storage();
    const user = await setUp();
    expect(await signIn(db, { email: "ana@example.com", password: "wrong password!", ip: null }, T0)).toEqual({
      outcome: "invalid",
    });
    expect(await signIn(db, { email: "nobody@example.com", password, ip: null }, T0)).toEqual({ outcome: "invalid" });
    const result = await signIn(db, { email: "ANA@example.com", password, ip: "203.0.113.9" }, T0);
    if (result.outcome !== "signed_in") throw new Error(result.outcome);
    expect(result.user.id).toBe(user.id);
    const token = await openSession(db, user.id, T0);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect((await findSession(db, token, at(SESSION_LIFETIME_MS - 1)))?.user.id).toBe(user.id);
    expect(await findSession(db, token, at(SESSION_LIFETIME_MS))).toBeUndefined();
    expect(await findSession(db, "forged", T0)).toBeUndefined();
    await signOut(db, token);
    expect(await findSession(db, token, T0)).toBeUndefined();
  });

  it("slows guessing per account: free failures, then doubling blocks (even for the right password), forgotten after success", async () => {
    const { db } = storage();
    await setUp();
    const attempt = (pw: string, ms: number, ip: string | null = null) =>
      signIn(db, { email: "ana@example.com", password: pw, ip }, at(ms));
    for (let i = 0; i < FREE_FAILURES.account; i++) expect(await attempt("guess", i)).toEqual({ outcome: "invalid" });
    expect(await attempt("guess", 10)).toEqual({ outcome: "invalid" }); // the sixth failure blocks for 1 s
    expect(await attempt(password, 20)).toMatchObject({ outcome: "throttled", retryAfterSeconds: 1 });
    expect(await attempt("guess", 1100)).toEqual({ outcome: "invalid" }); // the seventh: 2 s
    expect(await attempt(password, 1200)).toMatchObject({ outcome: "throttled", retryAfterSeconds: 2 });
    expect(await attempt(password, 3200)).toMatchObject({ outcome: "signed_in" });
    const [row] = await db.select().from(signInFailures).where(eq(signInFailures.subject, "email:ana@example.com"));
    expect(row).toBeUndefined();
  });

  it("slows guessing per address across accounts, and forgets a quiet address", async () => {
    const { db } = storage();
    await setUp();
    const ip = "198.51.100.7";
    for (let i = 0; i <= FREE_FAILURES.address; i++) {
      await signIn(db, { email: `guess${i}@example.com`, password: "guess", ip }, at(i));
    }
    expect(await signIn(db, { email: "ana@example.com", password, ip }, at(100))).toMatchObject({
      outcome: "throttled",
    });
    expect(await signIn(db, { email: "ana@example.com", password, ip: "198.51.100.8" }, at(100))).toMatchObject({
      outcome: "signed_in",
    });
    await purgeExpiredSessions(db, at(FAILURE_MEMORY_MS + 10_000));
    expect(
      await db
        .select()
        .from(signInFailures)
        .where(eq(signInFailures.subject, `ip:${ip}`)),
    ).toEqual([]);
  });
});
