// Secrets the replicas of one deployment share, kept in its database: the first replica that needs
// one creates it, every other reads the same value (INSERT … ON CONFLICT DO NOTHING, then SELECT).
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Queryable } from "./index.ts";
import { serverSecrets } from "./schema.ts";

export async function sharedSecret(db: Queryable, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing({ target: serverSecrets.name });
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}
