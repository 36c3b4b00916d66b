import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, variables } from "./config.ts";
import { RETRY_SCHEDULE_MS } from "./domain/webhook-sending.ts";

describe("loadConfig", () => {
  it("has defaults for everything", () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: "0.0.0.0",
      dataDir: resolve("data"),
      databaseUrl: undefined,
      databasePoolSize: 10,
      redisUrl: undefined,
      logLevel: "info",
      adminSocketPath: resolve("data", "admin.sock"),
      agentConcurrency: 2,
      planRunConcurrency: { free: 1, pro: 2, team: 4, enterprise: 8 },
      planBuildConcurrency: { free: 1, pro: 2, team: 4, enterprise: 8 },
      agentRunTimeoutMs: 600_000,
      buildWorkers: 1,
      buildTimeoutMs: 60_000,
      agent: undefined,
      appsPort: 8081,
      appsDomain: undefined,
      webhookConcurrency: 10,
      webhookAllowPrivateNetworks: false,
      webhookRetrySchedule: undefined,
      publicUrl: undefined,
      passwordHashCost: { N: 32768, r: 8, p: 3 },
      migrateOnStart: true,
      auditRetentionDays: 90,
      serverLimits: {
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 300_000,
        keepAliveTimeoutMs: 90_000,
        idleTimeoutMs: 120_000,
        maxConnections: 10_000,
        maxHeaderSize: 16_384,
        unreadBodyBytes: 1_048_576,
        unreadBodyMs: 5_000,
      },
      trustProxy: false,
      unauthenticatedRateLimit: 60,
      eventStreamsPerKey: 5,
      eventStreamHeartbeatMs: 15_000,
      idempotencyLockTimeoutMs: 60_000,
      jobPollIntervalMs: 1000,
      jobSuperviseIntervalMs: 10_000,
      jobRetryDelayMs: 2000,
      jobRetryDelayMaxMs: 300_000,
      webhookAttemptTimeoutMs: 10_000,
      webhookPollIntervalMs: 250,
    });
  });

  it("reads the job queue's and deliveries' timings", () => {
    expect(
      loadConfig({
        JOB_POLL_INTERVAL: "500ms",
        JOB_SUPERVISE_INTERVAL: "1s",
        JOB_RETRY_DELAY: "1s",
        JOB_RETRY_DELAY_MAX: "2s",
        WEBHOOK_ATTEMPT_TIMEOUT: "2s",
        WEBHOOK_POLL_INTERVAL: "100ms",
      }),
    ).toMatchObject({
      jobPollIntervalMs: 500,
      jobSuperviseIntervalMs: 1000,
      jobRetryDelayMs: 1000,
      jobRetryDelayMaxMs: 2000,
      webhookAttemptTimeoutMs: 2000,
      webhookPollIntervalMs: 100,
    });
    expect(() => loadConfig({ JOB_POLL_INTERVAL: "100ms" })).toThrow(/JOB_POLL_INTERVAL must be a duration from 500ms/);
    expect(() => loadConfig({ JOB_RETRY_DELAY: "1500ms" })).toThrow(
      /JOB_RETRY_DELAY must be a whole number of seconds/,
    );
    expect(() => loadConfig({ JOB_RETRY_DELAY: "10s", JOB_RETRY_DELAY_MAX: "5s" })).toThrow(
      /JOB_RETRY_DELAY_MAX must not be shorter than JOB_RETRY_DELAY/,
    );
  });

  it("reads EVENT_STREAMS_PER_KEY and EVENT_STREAM_HEARTBEAT", () => {
    expect(loadConfig({ EVENT_STREAMS_PER_KEY: "20", EVENT_STREAM_HEARTBEAT: "30s" })).toMatchObject({
      eventStreamsPerKey: 20,
      eventStreamHeartbeatMs: 30_000,
    });
    expect(() => loadConfig({ EVENT_STREAMS_PER_KEY: "0" })).toThrow(
      /EVENT_STREAMS_PER_KEY must be an integer from 1 to 1000/,
    );
    expect(() => loadConfig({ EVENT_STREAM_HEARTBEAT: "soon" })).toThrow(/EVENT_STREAM_HEARTBEAT/);
  });

  it("reads MIGRATE_ON_START and AUDIT_RETENTION_DAYS", () => {
    expect(loadConfig({ MIGRATE_ON_START: "false", AUDIT_RETENTION_DAYS: "30" })).toMatchObject({
      migrateOnStart: false,
      auditRetentionDays: 30,
    });
    expect(loadConfig({ MIGRATE_ON_START: "1" }).migrateOnStart).toBe(true);
    expect(() => loadConfig({ MIGRATE_ON_START: "later" })).toThrow(/MIGRATE_ON_START must be true or false/);
    for (const bad of ["0", "3651", "7d", "-1", "1.5"]) {
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad })).toThrow(
        /AUDIT_RETENTION_DAYS must be an integer from 1 to 3650/,
      );
    }
  });

  it("reads UNAUTHENTICATED_RATE_LIMIT, 0 turning it off", () => {
    expect(loadConfig({ UNAUTHENTICATED_RATE_LIMIT: "0" }).unauthenticatedRateLimit).toBe(0);
    expect(loadConfig({ UNAUTHENTICATED_RATE_LIMIT: "600" }).unauthenticatedRateLimit).toBe(600);
    expect(() => loadConfig({ UNAUTHENTICATED_RATE_LIMIT: "-1" })).toThrow(/UNAUTHENTICATED_RATE_LIMIT/);
  });

  it("reads TRUST_PROXY: off, a hop count (true is one), or the proxies' addresses", () => {
    for (const off of ["false", "0", "no"]) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.7,loopback, 2001:db8::/32" }).trustProxy).toEqual({
      proxies: ["10.0.0.0/8", "192.168.1.7", "loopback", "2001:db8::/32"],
    });
    for (const bad of ["maybe", "10.0.0.0/33", "10.0.0/8", "300.1.1.1", "21"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be/);
    }
  });

  it("reads the HTTP server limits", () => {
    expect(
      loadConfig({
        HEADERS_TIMEOUT: "10s",
        REQUEST_TIMEOUT: "15m",
        KEEP_ALIVE_TIMEOUT: "620",
        MAX_CONNECTIONS: "2000",
        MAX_HEADER_SIZE: "32768",
      }).serverLimits,
    ).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 900_000,
      keepAliveTimeoutMs: 620_000,
      maxConnections: 2000,
      maxHeaderSize: 32_768,
    });
    expect(() => loadConfig({ HEADERS_TIMEOUT: "10m", REQUEST_TIMEOUT: "1m" })).toThrow(
      /HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT/,
    );
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT: "0" })).toThrow(/KEEP_ALIVE_TIMEOUT/);
    expect(() => loadConfig({ MAX_CONNECTIONS: "0" })).toThrow(/MAX_CONNECTIONS/);
    expect(() => loadConfig({ MAX_HEADER_SIZE: "16k" })).toThrow(/MAX_HEADER_SIZE/);
  });

  it("reads PASSWORD_HASH_COST as scrypt's N,r,p", () => {
    expect(loadConfig({ PASSWORD_HASH_COST: "65536, 8, 2" }).passwordHashCost).toEqual({ N: 65536, r: 8, p: 2 });
    for (const bad of ["30000,8,1", "32768,8", "512,8,1", "32768,0,1", "x"]) {
      expect(() => loadConfig({ PASSWORD_HASH_COST: bad })).toThrow(/PASSWORD_HASH_COST/);
    }
  });

  it("reads PUBLIC_URL as an origin (unset: the server derives it from the port it binds)", () => {
    expect(loadConfig({ PORT: "9000" }).publicUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: "https://API.example.com/" }).publicUrl).toBe("https://api.example.com");
    expect(() => loadConfig({ PUBLIC_URL: "https://api.example.com/v1" })).toThrow(/PUBLIC_URL must be an origin/);
    expect(() => loadConfig({ PUBLIC_URL: "ftp://api.example.com" })).toThrow(/PUBLIC_URL/);
  });

  it("reads the webhook delivery settings", () => {
    expect(
      loadConfig({
        WEBHOOK_CONCURRENCY: "3",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        WEBHOOK_RETRY_SCHEDULE: "500ms, 1s,2m",
      }),
    ).toMatchObject({
      webhookConcurrency: 3,
      webhookAllowPrivateNetworks: true,
      webhookRetrySchedule: [500, 1000, 120_000],
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: "maybe" })).toThrow(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: "5s,,1m" })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  // Set together, as a deployment sets them: each read, none disturbing another.
  it.each([
    {
      reads: "the agent, the apps listener and the run limits",
      env: {
        AGENT_BASE_URL: "http://127.0.0.1:9000/v1",
        AGENT_MODEL: "m-1",
        AGENT_API_KEY: "sk-x",
        AGENT_CONCURRENCY: "4",
        AGENT_RUN_TIMEOUT: "90s",
        APPS_PORT: "9090",
        APPS_DOMAIN: "Apps.Example.com.",
      },
      config: {
        agent: { baseUrl: "http://127.0.0.1:9000/v1", model: "m-1", apiKey: "sk-x" },
        agentConcurrency: 4,
        agentRunTimeoutMs: 90_000,
        appsPort: 9090,
        appsDomain: "apps.example.com",
      },
    },
    {
      reads: "every variable, and treats empty ones as unset",
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: "/srv/pbs",
        DATABASE_URL: "postgres://app@db:5432/pbs",
        DATABASE_POOL_SIZE: "20",
        REDIS_URL: "",
        LOG_LEVEL: "DEBUG",
      },
      config: {
        port: 0,
        host: "127.0.0.1",
        dataDir: "/srv/pbs",
        databaseUrl: "postgres://app@db:5432/pbs",
        databasePoolSize: 20,
        redisUrl: undefined,
        logLevel: "debug",
        adminSocketPath: "/srv/pbs/admin.sock",
      },
    },
  ])("reads $reads", ({ env, config }) => {
    const loaded = loadConfig(env);
    expect(loaded).toMatchObject(config);
    expect(Object.isFrozen(loaded)).toBe(true);
  });

  it("reads AGENT_RUN_TIMEOUT in seconds or minutes, and refuses an agent missing its model or base URL, or a bad APPS_DOMAIN", () => {
    expect(loadConfig({ AGENT_RUN_TIMEOUT: "10m" }).agentRunTimeoutMs).toBe(600_000);
    expect(loadConfig({ AGENT_RUN_TIMEOUT: "600" }).agentRunTimeoutMs).toBe(600_000);
    expect(() => loadConfig({ AGENT_RUN_TIMEOUT: "soon" })).toThrow(/AGENT_RUN_TIMEOUT/);
    expect(() => loadConfig({ AGENT_BASE_URL: "http://127.0.0.1:9000/v1" })).toThrow(/AGENT_MODEL/);
    expect(() => loadConfig({ AGENT_MODEL: "m-1" })).toThrow(/AGENT_BASE_URL/);
    expect(() => loadConfig({ APPS_DOMAIN: "not a domain" })).toThrow(/APPS_DOMAIN/);
  });

  it("reads the per-plan caps, each plan left out keeping its default", () => {
    expect(
      loadConfig({ PLAN_RUN_CONCURRENCY: "free=2, enterprise=16", PLAN_BUILD_CONCURRENCY: "team=1" }),
    ).toMatchObject({
      planRunConcurrency: { free: 2, pro: 2, team: 4, enterprise: 16 },
      planBuildConcurrency: { free: 1, pro: 2, team: 1, enterprise: 8 },
    });
    for (const bad of ["free", "free=0", "gold=3", "free=1,pro", "pro=1001", "team=two", "free=1,,pro=2"]) {
      expect(() => loadConfig({ PLAN_RUN_CONCURRENCY: bad })).toThrow(
        /PLAN_RUN_CONCURRENCY must list plan=n \(plans: free, pro, team, enterprise; n from 1 to 1000\)/,
      );
    }
  });

  it("reads BUILD_WORKERS and BUILD_TIMEOUT (durations as AGENT_RUN_TIMEOUT)", () => {
    expect(loadConfig({ BUILD_WORKERS: "3", BUILD_TIMEOUT: "2m" })).toMatchObject({
      buildWorkers: 3,
      buildTimeoutMs: 120_000,
    });
    expect(loadConfig({ BUILD_TIMEOUT: "90" }).buildTimeoutMs).toBe(90_000);
    expect(loadConfig({ BUILD_TIMEOUT: "1500ms" }).buildTimeoutMs).toBe(1_500);
    for (const bad of ["0", "65", "two", "1.5"]) {
      expect(() => loadConfig({ BUILD_WORKERS: bad })).toThrow(/BUILD_WORKERS must be an integer from 1 to 64/);
    }
    for (const bad of ["999ms", "11m", "soon", "-5s"]) {
      expect(() => loadConfig({ BUILD_TIMEOUT: bad })).toThrow(/BUILD_TIMEOUT must be a duration from 1s to 10m \(/);
    }
  });

  it.each([
    [{ PORT: "80a" }, /PORT must be an integer from 0 to 65535/],
    [{ PORT: "70000" }, /PORT/],
    [{ PORT: "-1" }, /PORT/],
    [{ DATABASE_POOL_SIZE: "0" }, /DATABASE_POOL_SIZE/],
    [{ DATABASE_URL: "mysql://x@y/z" }, /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ REDIS_URL: "not a url" }, /REDIS_URL is not a valid URL/],
    [{ LOG_LEVEL: "verbose" }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
  ])("refuses %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("does not repeat a database URL, which may hold a password, in its error", () => {
    expect(() => loadConfig({ DATABASE_URL: "postgres://user:hunter2@[bad" })).toThrow(
      /^DATABASE_URL is not a valid URL$/,
    );
  });

  it("reads every variable it declares, and no other", () => {
    const asked = new Set<string>();
    loadConfig(new Proxy({}, { get: (_, name) => (typeof name === "string" && asked.add(name), undefined) }));
    expect([...asked].sort()).toEqual(Object.keys(variables).sort());
  });

  // docs/configuration.md shows these defaults: each must be what an unset variable gives.
  it.each(Object.entries(variables).filter(([name]) => !["PUBLIC_URL", "WEBHOOK_RETRY_SCHEDULE"].includes(name)))(
    "gives %s its documented default when unset",
    (name, variable) => {
      if (variable.default === undefined) expect(variable.parse(name, undefined)).toBeUndefined();
      else expect(variable.parse(name, undefined)).toEqual(variable.parse(name, variable.default));
    },
  );

  it("documents the default that other code owns: the retry schedule (the public URL's: src/server.test.ts)", () => {
    expect(
      variables.WEBHOOK_RETRY_SCHEDULE.parse("WEBHOOK_RETRY_SCHEDULE", variables.WEBHOOK_RETRY_SCHEDULE.default),
    ).toEqual(RETRY_SCHEDULE_MS);
  });
});
