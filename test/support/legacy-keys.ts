// API keys without a checksum (`svc_live_` and 40 random characters), the form a database may still
// hold from earlier versions: inserted as those versions wrote them, for the tests that keep them working.
import { hashSecret } from "../../src/domain/keys.ts";
import { newId, randomBase62 } from "../../src/storage/ids.ts";
import type { Queryable } from "../../src/storage/index.ts";
import { apiKeys, type Environment } from "../../src/storage/schema.ts";

/** Inserts a full-access key without a checksum into `workspaceId`; returns its secret. */
export async function insertLegacyKey(db: Queryable, workspaceId: string, environment: Environment = "live") {
  const prefix = `svc_${environment}_`;
  const secret = prefix + randomBase62(40);
  await db.insert(apiKeys).values({
    id: newId("key"),
    workspaceId,
    name: "without a checksum",
    environment,
    scopes: ["*"],
    secretHash: hashSecret(secret),
    displayPrefix: secret.slice(0, prefix.length + 4),
    last4: secret.slice(-4),
  });
  return secret;
}
