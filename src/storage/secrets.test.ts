import { afterAll, beforeAll, expect, it } from "vitest";
import { forEachDriver } from "../../test/support/database.ts";
import type { Storage } from "./index.ts";
import { sharedSecret } from "./secrets.ts";

forEachDriver("shared secrets", (driver) => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await driver.open();
  });
  afterAll(() => storage?.close());

  it("creates a secret once and hands every caller the same one, concurrent callers included", async () => {
    const [a, b, c] = await Promise.all([sharedSecret(storage.db, "cursor"), sharedSecret(storage.db, "cursor"), sharedSecret(storage.db, "cursor")]);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(await sharedSecret(storage.db, "other")).not.toBe(a);
  });
});
