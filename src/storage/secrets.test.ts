import { expect, it } from "vitest";
import { forEachDriver, useStorage } from "../../test/support/database.ts";
import { sharedSecret } from "./secrets.ts";

forEachDriver("shared secrets", (driver) => {
  const storage = useStorage(driver);

  it("creates a secret once and hands every caller the same one, concurrent callers included", async () => {
    const [a, b, c] = await Promise.all([
      sharedSecret(storage().db, "cursor"),
      sharedSecret(storage().db, "cursor"),
      sharedSecret(storage().db, "cursor"),
    ]);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(await sharedSecret(storage().db, "other")).not.toBe(a);
  });
});
