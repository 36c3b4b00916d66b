import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { pgliteDriver } from "../test/support/database.ts";
import { serverEnvironment } from "../test/support/environment.ts";
import { loadConfig } from "./config.ts";
import { createServer } from "./server.ts";

it("binds free ports when told port 0, is reached where it says, and says so to OAuth clients", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "pbs-server-"));
  const server = await createServer(loadConfig({ ...serverEnvironment({ DATA_DIR: dataDir }), LOG_LEVEL: "silent" }), {
    storage: await pgliteDriver.open(),
  });
  try {
    const { url, appsUrl } = await server.start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(appsUrl).not.toBe(url);
    const metadata = (await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
    };
    expect(metadata.issuer).toBe(url);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(server.apps.origin("demo")).toBe(`http://demo.localhost:${new URL(appsUrl).port}/`);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
