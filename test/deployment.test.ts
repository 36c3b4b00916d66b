// The deployment files cannot rot: compose.yaml's services are started here as plain processes (no
// container engine runs on test machines) with the commands and environment the file and the
// Dockerfile give them, pointed at the test's PostgreSQL database and Redis, behind a round-robin
// proxy of the test's own that routes by the load balancer's health check, and both replicas serve
// one workspace through it. Also: the load balancer's config parses (when `haproxy` is installed),
// the image's HEALTHCHECK passes against a running replica, and every variable compose.yaml sets is
// one the server reads and docs/configuration.md documents.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import pg from "pg";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configurationDocIsFresh } from "../scripts/configuration-doc.ts";
import { variables as declaredVariables } from "../src/config.ts";
import { readMigrations } from "../src/storage/migrator.ts";
import { postgresDriver, type ProcessDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { repoRoot, run, startServer } from "./support/process.ts";

const read = (path: string) => readFileSync(join(repoRoot, path), "utf8");

// ---------------------------------------------------------------------------------------------
// The files, read as a container engine reads them

interface Dockerfile {
  readonly from: string;
  /** COPY instructions' sources and destination. */
  readonly copy: string[][];
  readonly env: Record<string, string>;
  readonly user: string | undefined;
  readonly cmd: string[];
  readonly healthcheck: string[];
  readonly run: string[];
}

function readDockerfile(text: string): Dockerfile {
  const instructions = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [, name, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
      return { name: name!.toUpperCase(), rest: rest! };
    });
  const all = (name: string) =>
    instructions.filter((instruction) => instruction.name === name).map((instruction) => instruction.rest);
  const env = Object.fromEntries(
    all("ENV").flatMap((rest) => rest.split(/\s+/).map((pair) => pair.split("=") as [string, string])),
  );
  const healthcheck = all("HEALTHCHECK")[0] ?? "";
  return {
    from: all("FROM")[0]!,
    copy: all("COPY").map((rest) => rest.split(/\s+/)),
    env,
    user: all("USER").at(-1),
    cmd: JSON.parse(all("CMD").at(-1)!) as string[],
    healthcheck: JSON.parse(healthcheck.slice(healthcheck.indexOf("CMD ") + 4)) as string[],
    run: all("RUN"),
  };
}

interface ComposeService {
  readonly image?: string;
  readonly build?: unknown;
  readonly command?: string[];
  readonly environment?: Record<string, string | number | boolean>;
  readonly depends_on?: Record<string, { condition: string }>;
  readonly volumes?: string[];
}

/** compose.yaml with `${VAR:-default}` replaced as Compose does with nothing set in the environment. */
function readCompose(text: string): { services: Record<string, ComposeService> } {
  const interpolated = text.replace(
    /\$\{(\w+)(?::?-([^}]*))?\}/g,
    (_, _name: string, fallback: string | undefined) => fallback ?? "",
  );
  return parse(interpolated, { merge: true }) as { services: Record<string, ComposeService> };
}

const dockerfile = readDockerfile(read("Dockerfile"));
const compose = readCompose(read("compose.yaml"));
const services = compose.services;
const serviceNamed = (predicate: (service: ComposeService) => boolean) =>
  Object.keys(services).filter((name) => predicate(services[name]!));
const haproxyConfig = read("deploy/haproxy.cfg");

/** The replicas: services built from the Dockerfile that run its CMD (the server). */
const replicaNames = serviceNamed((service) => service.build !== undefined && service.command === undefined);
const migrateName = serviceNamed(
  (service) => service.build !== undefined && service.command?.join(" ").endsWith("pbs.ts migrate") === true,
)[0];
const loadBalancerName = serviceNamed(
  (service) => service.volumes?.some((volume) => volume.startsWith("./deploy/haproxy.cfg:")) === true,
)[0];

/** The backend named `name` in haproxy.cfg: its health check and its servers. */
function haproxyBackend(name: string): {
  checkUri: string | undefined;
  servers: string[];
  checkPort: string | undefined;
} {
  const section = new RegExp(String.raw`^backend ${name}\n((?:[ \t]+.*\n?)*)`, "m").exec(haproxyConfig)?.[1] ?? "";
  return {
    checkUri: /http-check send meth GET uri (\S+)/.exec(section)?.[1],
    checkPort: /default-server .*\bcheck port (\d+)/.exec(section)?.[1],
    servers: [...section.matchAll(/^\s*server \S+ (\S+)/gm)].map((match) => match[1]!),
  };
}

describe("the deployment files", () => {
  it("build a Node 24 image that runs the server as an unprivileged user, with production dependencies only", () => {
    expect(dockerfile.from).toMatch(/^node:24\b/);
    expect(dockerfile.user).toBeDefined();
    expect(["root", "0"]).not.toContain(dockerfile.user);
    expect(dockerfile.cmd).toEqual(["node", "src/main.ts"]);
    expect(dockerfile.run.some((command) => command.includes("npm ci --omit=dev"))).toBe(true);
    expect(dockerfile.healthcheck.join(" ")).toContain("/healthz");
  });

  it("describe two replicas that wait for a one-shot `pbs migrate`, PostgreSQL, Redis and a load balancer checking /readyz", () => {
    expect(replicaNames).toHaveLength(2);
    expect(migrateName).toBeDefined();
    expect(loadBalancerName).toBeDefined();
    const images = Object.values(services).map((service) => service.image ?? "");
    expect(images.some((image) => image.startsWith("postgres:"))).toBe(true);
    expect(images.some((image) => image.startsWith("redis:"))).toBe(true);
    for (const name of replicaNames) {
      const replica = services[name]!;
      expect(replica.depends_on?.[migrateName!]).toEqual({ condition: "service_completed_successfully" });
      expect(replica.environment?.MIGRATE_ON_START).toBe("false");
      expect(replica.environment?.DATABASE_URL).toBe(services[migrateName!]!.environment?.DATABASE_URL);
      expect(services[loadBalancerName!]!.depends_on?.[name]).toEqual({ condition: "service_healthy" });
    }
    const port = dockerfile.env.PORT;
    const appsPort = dockerfile.env.APPS_PORT;
    expect(haproxyBackend("api")).toEqual({
      checkUri: "/readyz",
      checkPort: undefined,
      servers: replicaNames.map((name) => `${name}:${port}`),
    });
    expect(haproxyBackend("apps")).toEqual({
      checkUri: "/readyz",
      checkPort: port,
      servers: replicaNames.map((name) => `${name}:${appsPort}`),
    });
  });

  it("name the database of the PostgreSQL service with its own credentials, and the Redis service", () => {
    const postgres = Object.entries(services).find(([, service]) => service.image?.startsWith("postgres:"))!;
    const redis = Object.entries(services).find(([, service]) => service.image?.startsWith("redis:"))!;
    const url = new URL(String(services[replicaNames[0]!]!.environment!.DATABASE_URL));
    const env = postgres[1].environment!;
    expect({
      host: url.hostname,
      port: url.port,
      user: url.username,
      password: url.password,
      database: url.pathname.slice(1),
    }).toEqual({
      host: postgres[0],
      port: "5432",
      user: env.POSTGRES_USER,
      password: env.POSTGRES_PASSWORD,
      database: env.POSTGRES_DB,
    });
    expect(new URL(String(services[replicaNames[0]!]!.environment!.REDIS_URL)).hostname).toBe(redis[0]);
  });

  it("put in the image every module the server, pbs and the build step load: production packages (`npm ci --omit=dev`) and the files it copies", async () => {
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { dev?: boolean }> };
    const installed = (name: string) =>
      lock.packages[`node_modules/${name}`] !== undefined && lock.packages[`node_modules/${name}`]!.dev !== true;
    // What the Dockerfile copies into /app besides package*.json: folders and single files.
    const copied = dockerfile.copy.map(([source]) => source!).filter((source) => !source.startsWith("package"));
    const inImage = (path: string) => copied.some((source) => path === source || path.startsWith(`${source}/`));
    const { readdir } = await import("node:fs/promises");
    const sources: string[] = [];
    for (const source of copied) {
      if (source.endsWith(".ts")) sources.push(source);
      else
        for (const file of await readdir(join(repoRoot, source), { recursive: true })) sources.push(join(source, file));
    }
    // `pbs listen` follows the stream with packages/client's source: it runs from a checkout, and in
    // the image `pbs listen` says so (src/cli/run-pbs.ts) rather than failing on a missing module.
    const checkoutOnly = new Set(["src/cli/listen.ts"]);
    expect(read("src/cli/run-pbs.ts")).toContain("listen needs the client library of a checkout");
    const code = sources.filter(
      (file) =>
        file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts") && !checkoutOnly.has(file),
    );
    const missing: string[] = [];
    for (const file of code) {
      // Imports that stay at run time: `import … from`, `export … from`, `import("…")`; not `import type`.
      const text = read(file).replace(/^\s*(?:import|export) type [^;]*;/gms, "");
      for (const [, specifier] of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)"([^"]+)"/gm)) {
        if (specifier!.startsWith("node:")) continue;
        if (specifier!.startsWith(".")) {
          const target = join(file, "..", specifier!);
          if (!inImage(target)) missing.push(`${file}: ${specifier} (not copied into the image)`);
          continue;
        }
        const name = specifier!.startsWith("@")
          ? specifier!.split("/").slice(0, 2).join("/")
          : specifier!.split("/")[0]!;
        if (!installed(name)) missing.push(`${file}: ${name} (a dev dependency, or not installed)`);
      }
    }
    expect(code.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  const haproxy = (() => {
    try {
      execFileSync("haproxy", ["-v"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!haproxy)(
    `has a load balancer config that haproxy accepts${haproxy ? "" : " (skipped: no haproxy binary on PATH)"}`,
    () => {
      // Outside Docker the replicas' names do not resolve: servers are disabled (a warning), not an error.
      const output = execFileSync("haproxy", ["-c", "-f", join(repoRoot, "deploy/haproxy.cfg")], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      expect(output).toContain("Configuration file is valid");
    },
  );
});

// ---------------------------------------------------------------------------------------------
// The services as plain processes

const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const skipReason =
  postgresDriver.skipReason ?? (redisUrl ? undefined : "set TEST_REDIS_URL to run the compose services");

/** A service's command as a process here: the image's WORKDIR (/app) is the repository, `node` this Node. */
function commandOf(service: ComposeService): string[] {
  const [program, ...args] = service.command ?? dockerfile.cmd;
  return [program === "node" ? process.execPath : program!, ...args];
}

describe.skipIf(skipReason !== undefined)(
  `compose.yaml's services as plain processes${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let database: ProcessDatabase;
    const dataDirs: string[] = [];
    let replicas: Awaited<ReturnType<typeof startServer>>[] = [];
    const replicaEnvs: Record<string, string>[] = [];
    let proxy: Server;
    let proxyUrl: string;
    /** Which replica (index) served each request through the proxy. */
    const servedBy: number[] = [];

    /**
     * The environment Compose would give a service (the image's ENV, then the service's), with the
     * hosts and ports of this machine: the test's database and Redis, free ports, a data directory.
     */
    async function environmentOf(service: ComposeService, publicUrl: string): Promise<Record<string, string>> {
      const env: Record<string, string> = { ...dockerfile.env };
      for (const [name, value] of Object.entries(service.environment ?? {})) env[name] = String(value);
      const dataDir = await mkdtemp(join(tmpdir(), "pbs-compose-"));
      dataDirs.push(dataDir);
      return {
        ...env,
        DATA_DIR: dataDir,
        HOST: "127.0.0.1",
        PORT: String(await freePort()),
        APPS_PORT: String(await freePort()),
        PUBLIC_URL: publicUrl,
        ...(env.DATABASE_URL ? { DATABASE_URL: database.databaseUrl! } : {}),
        ...(env.REDIS_URL ? { REDIS_URL: redisUrl! } : {}),
      };
    }

    beforeAll(async () => {
      database = await postgresDriver.forProcess({ migrated: false });
      const proxyPort = await freePort();
      proxyUrl = `http://127.0.0.1:${proxyPort}`;

      const migrate = services[migrateName!]!;
      const migrated = await run(
        commandOf(migrate)[0]!,
        commandOf(migrate).slice(1),
        await environmentOf(migrate, proxyUrl),
      );
      expect(migrated.stderr.split("\n").filter(Boolean)).toEqual(
        readMigrations().map((migration) => `pbs: applying ${migration.tag}`),
      );
      expect(migrated.code).toBe(0);
      expect(migrated.stdout.trimEnd().split("\n").at(-1)).toBe(
        `The schema is up to date (last migration ${readMigrations().at(-1)!.tag}).`,
      );

      for (const name of replicaNames) replicaEnvs.push(await environmentOf(services[name]!, proxyUrl));
      replicas = await Promise.all(
        replicaNames.map((name, i) => startServer(replicaEnvs[i]!, commandOf(services[name]!))),
      );

      // Round robin over the replicas whose health check (the load balancer's) answers 200.
      const checkUri = haproxyBackend("api").checkUri!;
      let next = 0;
      proxy = createServer((request, response) => {
        void (async () => {
          for (let tried = 0; tried < replicas.length; tried++) {
            const index = next++ % replicas.length;
            const target = new URL(replicas[index]!.url);
            if ((await fetch(`${target.origin}${checkUri}`).catch(() => undefined))?.status !== 200) continue;
            servedBy.push(index);
            const upstream = httpRequest(
              {
                host: target.hostname,
                port: target.port,
                method: request.method,
                path: request.url,
                headers: request.headers,
              },
              (answer) => {
                response.writeHead(answer.statusCode!, answer.headers);
                answer.pipe(response);
              },
            );
            upstream.on("error", () => response.destroy());
            request.pipe(upstream);
            return;
          }
          response.writeHead(503).end("no replica is ready");
        })();
      });
      await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
    }, 180_000);

    /** Roles are the server's, not the database's: dropped once the database that used them is gone. */
    const rolesToDrop: string[] = [];

    afterAll(async () => {
      for (const replica of replicas) if (replica.child.exitCode === null) replica.child.kill("SIGKILL");
      await new Promise((resolve) => proxy?.close(resolve));
      await database?.dispose();
      if (rolesToDrop.length > 0) {
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        for (const role of rolesToDrop) await admin.query(`drop role if exists ${role}`);
        await admin.end();
      }
      await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    });

    it("start the replicas with the image's command, and they pass the image's HEALTHCHECK", async () => {
      expect(replicas).toHaveLength(2);
      for (const env of replicaEnvs) {
        const [program, ...args] = dockerfile.healthcheck;
        const check = await run(program === "node" ? process.execPath : program!, args, env);
        expect(check.code).toBe(0);
      }
    });

    it("run a replica on a database role that cannot change the schema: after `pbs migrate`, replicas only read and write", async () => {
      const role = `pbs_replica_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: database.databaseUrl });
      await admin.connect();
      try {
        await admin.query(`create role ${role} login`);
        for (const statement of [
          `revoke create on schema public from public`,
          `grant usage on schema public, drizzle, pgboss to ${role}`,
          `grant select, insert, update, delete on all tables in schema public, drizzle, pgboss to ${role}`,
          `grant usage, select on all sequences in schema public, drizzle, pgboss to ${role}`,
          `grant execute on all functions in schema public, pgboss to ${role}`,
        ])
          await admin.query(statement);
        const url = new URL(database.databaseUrl!);
        url.username = role;
        url.password = "";
        const env = {
          ...replicaEnvs[0]!,
          DATABASE_URL: url.toString(),
          PORT: String(await freePort()),
          APPS_PORT: String(await freePort()),
        };
        const replica = await startServer(env, commandOf(services[replicaNames[0]!]!));
        try {
          expect((await fetch(`${replica.url}/readyz`)).status).toBe(200);
          const denied = await admin.query(`select has_schema_privilege('${role}', 'public', 'CREATE') as allowed`);
          expect(denied.rows).toEqual([{ allowed: false }]);
        } finally {
          const exited = once(replica.child, "exit");
          replica.child.kill("SIGTERM");
          expect((await exited)[0]).toBe(0);
          expect(replica.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
        }
      } finally {
        await admin.query(`drop owned by ${role}`).catch(() => {});
        await admin.end();
        rolesToDrop.push(role);
      }
    }, 180_000);

    it("serve one workspace from both replicas through the load balancer", async () => {
      const key = await run(
        process.execPath,
        ["src/cli/pbs.ts", "keys", "create", "--workspace", "compose", "--name", "through the proxy", "--json"],
        {
          DATABASE_URL: database.databaseUrl!,
          LOG_LEVEL: "silent",
        },
      );
      expect(key.code).toBe(0);
      const { secret } = JSON.parse(key.stdout) as { secret: string };
      const headers = { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" };

      const created = await fetch(`${proxyUrl}/v1/projects`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Behind the proxy", prompt: "A page." }),
      });
      expect(created.status).toBe(201);
      const project = (await created.json()) as { id: string };
      const served: Array<{ replica: number; names: string[] }> = [];
      for (let i = 0; i < 4; i++) {
        const listed = await fetch(`${proxyUrl}/v1/projects`, { headers });
        expect(listed.status).toBe(200);
        served.push({
          replica: servedBy.at(-1)!,
          names: ((await listed.json()) as { data: { id: string }[] }).data.map((item) => item.id),
        });
      }
      expect(new Set(served.map((answer) => answer.replica))).toEqual(new Set([0, 1]));
      for (const answer of served) expect(answer.names).toEqual([project.id]);
    });
  },
);

// ---------------------------------------------------------------------------------------------
// Every variable the server reads is documented

describe("the environment variables", () => {
  const variables = Object.keys(declaredVariables);

  it("are each documented in docs/configuration.md, rendered from src/config.ts's declarations", () => {
    expect(variables.length).toBeGreaterThan(15);
    expect(configurationDocIsFresh(), "docs/configuration.md is stale: run `npm run build`").toBe(true);
    const documented = read("docs/configuration.md");
    expect(variables.filter((name) => !documented.includes(`### \`${name}\``))).toEqual([]);
  });

  it("that compose.yaml sets for the replicas are all read by the server (no typo goes unnoticed)", () => {
    for (const name of replicaNames) {
      expect(
        Object.keys(services[name]!.environment ?? {}).filter((variable) => !variables.includes(variable)),
      ).toEqual([]);
    }
  });
});
