// The real server over HTTP on a free port, on a fresh database of the given driver, with helpers
// to make workspaces and keys. Every response goes through the contract-checking client.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { Agent } from "../../src/agents/agent.ts";
import type { App, AppOptions } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppAccess } from "../../src/domain/app-access.ts";
import { createApiKey, type ExpiryChoice } from "../../src/domain/keys.ts";
import type { Resolver, WebhookTargets } from "../../src/domain/webhook-targets.ts";
import { ensureWorkspace } from "../../src/domain/workspaces.ts";
import type { TrustProxy } from "../../src/http/client-address.ts";
import {
  createMemoryStore,
  PLAN_LIMITS,
  type Plan,
  type PlanLimits,
  type RateLimitStore,
  type RateLimitWindows,
} from "../../src/http/rate-limit/index.ts";
import type { JobQueue } from "../../src/jobs/queue.ts";
import type { ServerLimits } from "../../src/listen.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import { createServer } from "../../src/server.ts";
import type { Storage } from "../../src/storage/index.ts";
import { auditLog, type AuditEntry, type Environment } from "../../src/storage/schema.ts";
import { createApiClient, type ApiClient } from "./api-client.ts";
import type { TestDriver } from "./database.ts";
import { serverEnvironment } from "./environment.ts";

export interface KeyOptions {
  workspace?: string;
  plan?: Plan;
  environment?: Environment;
  scopes?: string[];
  expires?: ExpiryChoice | Date;
}

export interface TestServer {
  readonly url: string;
  readonly storage: Storage;
  readonly app: App;
  /** The apps listener (published apps), e.g. http://127.0.0.1:PORT; reach an app by sending its Host. */
  readonly appsUrl: string;
  readonly apps: AppAccess;
  readonly jobs: JobQueue;
  readonly webhookTargets: WebhookTargets;
  /** A client with a full-access live key of workspace `acme`. */
  readonly client: ApiClient;
  /** Creates a key (and its workspace when new) and returns its secret. */
  createKey(options?: KeyOptions): Promise<string>;
  /** A client that sends `key` (none when null). */
  as(key: string | null): ApiClient;
  /** The audit row of a request, polled for up to a second: the audit is written after the response. */
  auditRow(requestId: string): Promise<AuditEntry>;
  stop(): Promise<void>;
}

/** Limits high enough that suites not about rate limiting never meet them. */
const unlimited = Object.fromEntries(
  Object.keys(PLAN_LIMITS).map((plan) => [plan, { perMinute: 100_000, burst: 100_000 }]),
) as Record<Plan, PlanLimits>;

/**
 * The server of the enclosing suite: started before its first test, stopped after its last. What it
 * returns stands for that server, so read it in the suite's tests and hooks, not while declaring them.
 */
export function suiteServer(driver: TestDriver, options?: TestServerOptions): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(driver, options);
  });
  afterAll(() => server?.stop());
  return new Proxy({} as TestServer, {
    get(_, property) {
      if (!server) throw new Error("the suite's server is read before it started: read it in a test or hook");
      return Reflect.get(server, property) as unknown;
    },
  });
}

export type TestServerOptions = NonNullable<Parameters<typeof startTestServer>[1]>;

export async function startTestServer(
  driver: TestDriver,
  options: {
    rateLimitPlans?: Readonly<Record<Plan, PlanLimits>>;
    rateLimitWindows?: RateLimitWindows;
    /** Where the rate-limit counters live (default: memory), or how to make it on the server's storage; the server closes it when it stops. */
    rateLimitStore?: RateLimitStore | ((storage: Storage) => Promise<RateLimitStore>);
    /** How long an Idempotency-Key's claim outlives its last renewal (default 60 s). */
    idempotencyLockTimeoutMs?: number;
    /** The server's logger (default: silent), for tests that read what it logs. */
    logger?: Logger;
    /** HTTP server limits of both listeners, over the defaults (tests about them shorten them). */
    serverLimits?: Partial<ServerLimits>;
    /** TRUST_PROXY (default off). */
    trustProxy?: TrustProxy;
    /** The per-address limit of failed unauthenticated requests (default: off, for suites not about it). */
    unauthenticatedLimit?: { limit: number; windowSeconds?: number };
    /**
     * Run the workers (agent runs, deployment builds) in this server. Off by default: suites that
     * are not about them see runs and deployments stay queued, as they were created. Builds and the
     * built-in agent's edits run in a build thread (BUILD_WORKERS 1), within `buildTimeoutMs` (60 s).
     */
    workers?: boolean | { agent?: Agent; agentRunTimeoutMs?: number; concurrency?: number; buildTimeoutMs?: number };
    /**
     * Run the webhook delivery worker; `allowPrivateNetworks` (also for registration) lets tests
     * deliver to receivers on 127.0.0.1. Off by default: deliveries stay pending.
     */
    webhooks?: {
      deliver?: boolean;
      allowPrivateNetworks?: boolean;
      retrySchedule?: readonly number[];
      resolve?: Resolver;
    };
    /** The live event streams' bounds (per key, heartbeat, slow-reader buffer, poll). */
    eventStreams?: AppOptions["eventStreams"];
    /** Environment variables over the tests' defaults (serverEnvironment), as an operator would set them. */
    env?: Record<string, string>;
  } = {},
): Promise<TestServer> {
  const storage = await driver.open();
  const dataDir = await mkdtemp(join(tmpdir(), "pbs-server-"));
  const workers = options.workers === true ? {} : options.workers || undefined;
  const config = loadConfig({
    ...serverEnvironment({ DATA_DIR: dataDir }),
    ...(options.webhooks?.allowPrivateNetworks ? { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } : {}),
    ...options.env,
  });
  const server = await createServer(
    {
      ...config,
      serverLimits: { ...config.serverLimits, ...options.serverLimits },
      ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
      ...(options.webhooks?.retrySchedule ? { webhookRetrySchedule: options.webhooks.retrySchedule } : {}),
      // Below what an operator may set: tests about time limits meet them in milliseconds.
      ...(workers?.agentRunTimeoutMs ? { agentRunTimeoutMs: workers.agentRunTimeoutMs } : {}),
      ...(workers?.buildTimeoutMs ? { buildTimeoutMs: workers.buildTimeoutMs } : {}),
      ...(workers?.concurrency ? { agentConcurrency: workers.concurrency } : {}),
      ...(options.idempotencyLockTimeoutMs ? { idempotencyLockTimeoutMs: options.idempotencyLockTimeoutMs } : {}),
    },
    {
      storage,
      logger: options.logger ?? createLogger({ level: "silent" }),
      ...(workers?.agent ? { agent: workers.agent } : {}),
      ...(options.webhooks?.resolve ? { resolve: options.webhooks.resolve } : {}),
      rateLimitStore:
        typeof options.rateLimitStore === "function"
          ? await options.rateLimitStore(storage)
          : (options.rateLimitStore ?? createMemoryStore()),
      workers: workers !== undefined,
      deliveries: options.webhooks?.deliver ?? false,
      // Deliveries still waiting on a receiver are abandoned at once: a test has no use for them.
      drainTimeoutMs: 1000,
      api: {
        rateLimitPlans: options.rateLimitPlans ?? unlimited,
        ...(options.rateLimitWindows ? { rateLimitWindows: options.rateLimitWindows } : {}),
        unauthenticatedLimit: options.unauthenticatedLimit ?? { limit: 0 },
        ...(options.eventStreams ? { eventStreams: options.eventStreams } : {}),
      },
    },
  );
  const { url, appsUrl } = await server.start();

  async function createKey(key: KeyOptions = {}): Promise<string> {
    const { workspace } = await ensureWorkspace(storage.db, { slug: key.workspace ?? "acme", plan: key.plan ?? "pro" });
    const created = await createApiKey(storage.db, {
      workspaceId: workspace.id,
      name: "test",
      environment: key.environment ?? "live",
      scopes: key.scopes ?? ["*"],
      expires: key.expires ?? "none",
    });
    return created.secret;
  }

  const defaultKey = await createKey();
  return {
    url,
    storage,
    app: server.app,
    appsUrl,
    apps: server.apps,
    jobs: server.jobs,
    webhookTargets: server.webhookTargets,
    client: createApiClient(url, defaultKey),
    createKey,
    as: (key) => createApiClient(url, key ?? undefined),
    async auditRow(requestId) {
      const deadline = Date.now() + 1000;
      for (;;) {
        const [row] = await storage.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
        if (row) return row;
        if (Date.now() > deadline) throw new Error(`no audit row for ${requestId}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
