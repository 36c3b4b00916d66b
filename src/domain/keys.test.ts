import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { apiKeys } from "../storage/schema.ts";
import { forEachDriver, onEmbeddedDatabase, useStorage } from "../../test/support/database.ts";
import { InvalidInputError } from "./errors.ts";
import {
  authenticate,
  CHECKSUM_LENGTH,
  createApiKey,
  CREDENTIAL_SECRET,
  expiryTime,
  grants,
  hashSecret,
  isKeyWithoutChecksum,
  keyChecksumHolds,
  keyStatus,
  listApiKeys,
  revokeApiKey,
  validScopes,
  withChecksum,
  type Principal,
} from "./keys.ts";
import { sharedSecret } from "../storage/secrets.ts";
import { createWorkspace, ensureWorkspace } from "./workspaces.ts";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const seconds = (n: number) => new Date(T0.getTime() + n * 1000);

describe("expiry choices", () => {
  it("adds 30 days, 90 days or one calendar year, or none", () => {
    expect(expiryTime("30d", T0)?.toISOString()).toBe("2026-03-31T12:00:00.000Z");
    expect(expiryTime("90d", T0)?.toISOString()).toBe("2026-05-30T12:00:00.000Z");
    expect(expiryTime("1y", T0)?.toISOString()).toBe("2027-03-01T12:00:00.000Z");
    expect(expiryTime("none", T0)).toBeNull();
    const explicit = new Date("2026-04-01T00:00:00Z");
    expect(expiryTime(explicit, T0)).toBe(explicit);
  });
});

describe("scopes", () => {
  it("accepts the description's scopes, combined, and collapses anything with * to *", () => {
    expect(validScopes(["projects:read", "agents:run", "projects:read"])).toEqual(["projects:read", "agents:run"]);
    expect(validScopes(["files:read", "*"])).toEqual(["*"]);
  });

  it("refuses unknown and empty scope lists", () => {
    expect(() => validScopes(["projects:admin"])).toThrow(InvalidInputError);
    expect(() => validScopes([])).toThrow(InvalidInputError);
    expect(() => validScopes([" ", ""])).toThrow(InvalidInputError);
  });

  it("grants a scope a key lists, or everything to *", () => {
    expect(grants({ scopes: ["projects:read"] }, "projects:read")).toBe(true);
    expect(grants({ scopes: ["projects:read"] }, "projects:write")).toBe(false);
    expect(grants({ scopes: ["*"] }, "billing:read")).toBe(true);
  });
});

onEmbeddedDatabase("api keys", (driver) => {
  const storage = useStorage(driver);
  let workspaceId: string;
  beforeEach(async () => {
    workspaceId = (await createWorkspace(storage().db, { slug: "acme", name: "Acme", plan: "pro" })).id;
  });

  it("makes svc_live_/svc_test_ secrets of 40 random base62 characters and a checksum, with display prefix and last four", async () => {
    const live = await createApiKey(storage().db, { workspaceId, name: "live" });
    const test = await createApiKey(storage().db, { workspaceId, name: "test", environment: "test" });
    expect(live.secret).toMatch(/^svc_live_[0-9A-Za-z]{46}$/);
    expect(test.secret).toMatch(/^svc_test_[0-9A-Za-z]{46}$/);
    expect(live.key).toMatchObject({
      environment: "live",
      scopes: ["*"],
      displayPrefix: live.secret.slice(0, 13),
      last4: live.secret.slice(-4),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(live.key.id).toMatch(/^key_[0-9A-Za-z]{24}$/);
    expect(live.secret).not.toBe(test.secret.replace("test", "live"));
  });

  it("ends a secret in a checksum under the deployment's credential secret, which no other secret matches", async () => {
    const credentialSecret = await sharedSecret(storage().db, CREDENTIAL_SECRET);
    const { secret } = await createApiKey(storage().db, { workspaceId, name: "ci" });
    expect(keyChecksumHolds(secret, credentialSecret)).toBe(true);
    expect(secret).toBe(withChecksum(secret.slice(0, -CHECKSUM_LENGTH), credentialSecret));
    // Any one character changed, the environment swapped, another deployment's secret: it fails.
    for (let at = "svc_live_".length; at < secret.length; at++) {
      const changed = secret.slice(0, at) + (secret[at] === "a" ? "b" : "a") + secret.slice(at + 1);
      expect(keyChecksumHolds(changed, credentialSecret), changed).toBe(false);
    }
    expect(keyChecksumHolds(secret.replace("live", "test"), credentialSecret)).toBe(false);
    expect(keyChecksumHolds(secret, "another deployment's secret")).toBe(false);
    // Shapes that are no key with a checksum, whatever their end.
    for (const other of [secret.slice(0, -1), `${secret}a`, `${secret} `, secret.slice(0, -CHECKSUM_LENGTH), ""]) {
      expect(keyChecksumHolds(other, credentialSecret)).toBe(false);
    }
    expect(isKeyWithoutChecksum(secret)).toBe(false);
    expect(isKeyWithoutChecksum(secret.slice(0, -CHECKSUM_LENGTH))).toBe(true);
  });

  it("stores only the SHA-256 of the secret, and never hands the hash out", async () => {
    const { key, secret } = await createApiKey(storage().db, { workspaceId, name: "ci" });
    const [row] = await storage().db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.secretHash).toBe(hashSecret(secret));
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(secret.slice(13, -4)); // not even the hidden middle
    expect(Object.keys(key)).not.toContain("secretHash");
    expect(Object.keys((await listApiKeys(storage().db, workspaceId))[0]!)).not.toContain("secretHash");
  });

  it("authenticates a secret to its key and workspace", async () => {
    const { key, secret } = await createApiKey(storage().db, {
      workspaceId,
      name: "ci",
      environment: "test",
      scopes: ["projects:read"],
    });
    const principal = (await authenticate(storage().db, secret, T0)) as Principal;
    expect(principal.key).toMatchObject({ id: key.id, environment: "test", scopes: ["projects:read"] });
    expect(principal.workspace).toMatchObject({ id: workspaceId, slug: "acme", plan: "pro" });
    expect(Object.keys(principal.key)).not.toContain("secretHash");
  });

  it("refuses unknown, malformed and near-miss secrets as invalid", async () => {
    const { secret } = await createApiKey(storage().db, { workspaceId, name: "ci" });
    const lastChar = secret.at(-1) === "a" ? "b" : "a";
    for (const attempt of [
      secret.slice(0, -1) + lastChar,
      secret.replace("live", "test"),
      `${secret} `,
      "svc_live_",
      "garbage",
      "",
    ]) {
      expect(await authenticate(storage().db, attempt, T0)).toEqual({ refused: "invalid" });
    }
  });

  it("refuses a revoked key on the very next call, and keeps the first revocation time", async () => {
    const { key, secret } = await createApiKey(storage().db, { workspaceId, name: "ci" });
    expect(await authenticate(storage().db, secret, T0)).toHaveProperty("key");
    // Within a workspace (as the console revokes), another workspace's key is not there.
    const other = await createWorkspace(storage().db, { slug: "other" });
    expect(await revokeApiKey(storage().db, key.id, seconds(1), other.id)).toBeUndefined();
    expect(await authenticate(storage().db, secret, seconds(1))).toHaveProperty("key");
    const revoked = await revokeApiKey(storage().db, key.id, seconds(1), workspaceId);
    expect(revoked?.revokedAt?.toISOString()).toBe(seconds(1).toISOString());
    expect(await authenticate(storage().db, secret, seconds(2))).toEqual({
      refused: "revoked",
      keyId: key.id,
      workspaceId,
    });
    expect(keyStatus(revoked!)).toBe("revoked");

    const again = await revokeApiKey(storage().db, key.id, seconds(5));
    expect(again?.revokedAt?.toISOString()).toBe(seconds(1).toISOString());
    expect(await revokeApiKey(storage().db, "key_doesnotexist00", T0)).toBeUndefined();
  });

  it("refuses a key from its expiry time on, and accepts it just before", async () => {
    const { secret } = await createApiKey(storage().db, { workspaceId, name: "ci", expires: "30d" }, T0);
    const expiresAt = expiryTime("30d", T0)!;
    expect(await authenticate(storage().db, secret, new Date(expiresAt.getTime() - 1))).toHaveProperty("key");
    expect(await authenticate(storage().db, secret, expiresAt)).toMatchObject({ refused: "expired" });

    const explicit = await createApiKey(storage().db, { workspaceId, name: "until", expires: seconds(10) }, T0);
    expect(explicit.key.expiresAt?.toISOString()).toBe(seconds(10).toISOString());
    expect(await authenticate(storage().db, explicit.secret, seconds(11))).toMatchObject({ refused: "expired" });
  });

  it("refuses an expiry in the past, a bad name and unknown scopes at creation", async () => {
    await expect(createApiKey(storage().db, { workspaceId, name: "old", expires: seconds(-1) }, T0)).rejects.toThrow(
      InvalidInputError,
    );
    await expect(createApiKey(storage().db, { workspaceId, name: "  " })).rejects.toThrow(InvalidInputError);
    await expect(createApiKey(storage().db, { workspaceId, name: "x", scopes: ["root"] })).rejects.toThrow(
      InvalidInputError,
    );
  });

  it("writes last_used_at on first use and then at most once a minute", async () => {
    const { key, secret } = await createApiKey(storage().db, { workspaceId, name: "ci" }, T0);
    const lastUsed = async () =>
      (await storage().db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!.lastUsedAt?.toISOString();

    const first = (await authenticate(storage().db, secret, seconds(1))) as Principal;
    expect(first.key.lastUsedAt?.toISOString()).toBe(seconds(1).toISOString());
    expect(await lastUsed()).toBe(seconds(1).toISOString());

    await authenticate(storage().db, secret, seconds(50));
    expect(await lastUsed()).toBe(seconds(1).toISOString());

    const later = (await authenticate(storage().db, secret, seconds(62))) as Principal;
    expect(later.key.lastUsedAt?.toISOString()).toBe(seconds(62).toISOString());
    expect(await lastUsed()).toBe(seconds(62).toISOString());
  });

  it("lists a workspace's keys newest first, and only that workspace's", async () => {
    const other = await createWorkspace(storage().db, { slug: "other" });
    await createApiKey(storage().db, { workspaceId, name: "first" }, seconds(1));
    await createApiKey(storage().db, { workspaceId, name: "second" }, seconds(2));
    await createApiKey(storage().db, { workspaceId: other.id, name: "theirs" }, seconds(3));
    expect((await listApiKeys(storage().db, workspaceId)).map((key) => key.name)).toEqual(["second", "first"]);
  });
});

forEachDriver("workspaces", (driver) => {
  const storage = useStorage(driver);

  it("creates with defaults, refuses a taken slug, and ensureWorkspace finds or creates", async () => {
    const created = await createWorkspace(storage().db, { slug: "acme" });
    expect(created).toMatchObject({ slug: "acme", name: "acme", plan: "free" });
    expect(created.id).toMatch(/^ws_[0-9A-Za-z]{24}$/);
    await expect(createWorkspace(storage().db, { slug: "acme" })).rejects.toThrow(/already exists/);

    expect(await ensureWorkspace(storage().db, { slug: "acme" })).toEqual({ workspace: created, created: false });
    const fresh = await ensureWorkspace(storage().db, { slug: "beta" });
    expect(fresh.created).toBe(true);
  });

  it("gives concurrent ensureWorkspace calls for one slug the same workspace", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => ensureWorkspace(storage().db, { slug: "race" })));
    expect(new Set(results.map((result) => result.workspace.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
  });

  it("validates slug, name and plan", async () => {
    for (const slug of ["", "Acme", "-acme", "a b", "a".repeat(65)]) {
      await expect(createWorkspace(storage().db, { slug })).rejects.toThrow(InvalidInputError);
    }
    await expect(createWorkspace(storage().db, { slug: "ok", name: "x".repeat(101) })).rejects.toThrow(
      InvalidInputError,
    );
    await expect(createWorkspace(storage().db, { slug: "ok", plan: "gold" as never })).rejects.toThrow(
      InvalidInputError,
    );
  });
});
