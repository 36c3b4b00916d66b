// The server as operators run it: `node src/main.ts` (what `npm start` runs) in a child process on
// the embedded default, `pbs` giving a working key while it runs, and SIGTERM letting a request in
// flight finish before the process exits and releases its data directory.
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, run, startServer } from "./support/process.ts";
import { openStorage } from "../src/storage/index.ts";
import { pgliteDriver } from "./support/database.ts";

describe("the server process on the embedded default", () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  const env = () => ({
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: "",
    REDIS_URL: "",
    LOG_LEVEL: "info",
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "pbs-server-"));
    server = await startServer(env());
  }, 180_000);

  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers /healthz and /readyz", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  let secret: string;
  it("gets a working key from `pbs keys create` while it runs", async () => {
    const created = await run(
      join(repoRoot, "src/cli/pbs.ts"),
      ["keys", "create", "--workspace", "ops", "--name", "smoke"],
      { DATA_DIR: dataDir, DATABASE_URL: "" },
    );
    expect(created.code).toBe(0);
    secret = created.stdout.trimEnd().split("\n").at(-1)!;
    expect(secret).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/);
    const key = await fetch(`${server.url}/v1/key`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(key.status).toBe(200);
    expect(((await key.json()) as { workspace: { slug: string } }).workspace.slug).toBe("ops");
  }, 180_000);

  it("lets a request in flight finish on SIGTERM, refuses new connections, then exits 0 and frees DATA_DIR", async () => {
    const project = await fetch(`${server.url}/v1/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Drain", prompt: "drain test" }),
    });
    const { id } = (await project.json()) as { id: string };

    // A multipart upload whose body is still being sent when SIGTERM arrives.
    const boundary = "drain-boundary";
    const upload = httpRequest(`${server.url}/v1/projects/${id}/files`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    const answered = once(upload, "response") as Promise<[import("node:http").IncomingMessage]>;
    upload.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\nfirst half `,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const exited = once(server.child, "exit");
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    upload.end(`second half\r\n--${boundary}--\r\n`);

    const [response] = await answered;
    let body = "";
    for await (const chunk of response) body += chunk;
    expect(response.statusCode, body).toBe(201);
    expect(JSON.parse(body)).toMatchObject({ path: "slow.txt", size_bytes: "first half second half".length });

    const [code] = await exited;
    expect(code).toBe(0);
    expect(server.logs.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    // The data directory is free again, and the upload was committed before the storage closed.
    const storage = await openStorage(
      { dataDir, databaseUrl: undefined, databasePoolSize: 1 },
      { migrations: "require" },
    );
    try {
      const result = await storage.db.execute<{ path: string }>("select path from files");
      expect(result.rows.map((row) => row.path)).toContain("slow.txt");
    } finally {
      await storage.close();
    }
  }, 180_000);
});

describe("the server process on a port in use", () => {
  it("ends with exit code 1 and one line naming PORT or APPS_PORT, no stack trace", async () => {
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const taken = String((holder.address() as AddressInfo).port);
    const dataDir = await mkdtemp(join(tmpdir(), "pbs-server-"));
    try {
      const env = { DATA_DIR: dataDir, HOST: "127.0.0.1", DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "warn" };
      for (const [variable, ports] of [
        ["PORT", { PORT: taken, APPS_PORT: "0" }],
        ["APPS_PORT", { PORT: "0", APPS_PORT: taken }],
      ] as const) {
        const refused = await run(process.execPath, ["src/main.ts"], { ...env, ...ports });
        expect(refused.code, refused.stderr).toBe(1);
        expect(refused.stderr.trim()).toBe(
          `configuration: port ${taken} on 127.0.0.1 is in use; set ${variable} to a free port (0: any free port).`,
        );
      }
    } finally {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("the server process with MIGRATE_ON_START=false", () => {
  it("refuses to start on a database that is not migrated, saying what to run", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "pbs-server-"));
    try {
      const env = {
        DATA_DIR: dataDir,
        PORT: "0",
        APPS_PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: "",
        REDIS_URL: "",
        MIGRATE_ON_START: "false",
      };
      const refused = await run(process.execPath, ["src/main.ts"], env);
      expect(refused.code).toBe(1);
      const fatal = refused.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .find((entry) => entry.level === 60);
      expect(fatal?.msg).toBe(
        "the database has no schema yet (no migration applied); run `pbs migrate` to create it (or start with MIGRATE_ON_START=true)",
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("refuses to start while the job queue's schema is missing, and starts once `pbs migrate` installed it", async () => {
    // The application's migrations applied, pg-boss's schema not installed (no server ever ran).
    const database = await pgliteDriver.forProcess();
    try {
      const env = {
        ...database.env,
        PORT: "0",
        APPS_PORT: "0",
        HOST: "127.0.0.1",
        REDIS_URL: "",
        MIGRATE_ON_START: "false",
      };
      const refused = await run(process.execPath, ["src/main.ts"], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain(
        "the job queue's schema (pgboss) is missing or behind this release; run `pbs migrate` (or start with MIGRATE_ON_START=true)",
      );

      expect((await run(join(repoRoot, "src/cli/pbs.ts"), ["migrate"], env)).code).toBe(0);
      const server = await startServer(env);
      try {
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      } finally {
        const exited = once(server.child, "exit");
        server.child.kill("SIGTERM");
        await exited;
      }
    } finally {
      await database.dispose();
    }
  }, 180_000);
});
