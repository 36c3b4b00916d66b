// The real server over HTTP on a free port, on a fresh database of the given driver, with helpers
// to make workspaces and keys. Every response goes through the contract-checking client.
import { createApp, type App } from "../../src/app.ts";
import { createApiKey, type ExpiryChoice } from "../../src/domain/keys.ts";
import { ensureWorkspace } from "../../src/domain/workspaces.ts";
import { PLAN_LIMITS, type Plan, type PlanLimits, type RateLimitStore, type RateLimitWindows } from "../../src/http/rate-limit.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import type { Storage } from "../../src/storage/index.ts";
import { auditLog, type AuditEntry, type Environment } from "../../src/storage/schema.ts";
import { eq } from "drizzle-orm";
import { createApiClient, type ApiClient } from "./api-client.ts";
import type { TestDriver } from "./database.ts";

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
const unlimited = Object.fromEntries(Object.keys(PLAN_LIMITS).map((plan) => [plan, { perMinute: 100_000, burst: 100_000 }])) as Record<
  Plan,
  PlanLimits
>;

export async function startTestServer(
  driver: TestDriver,
  options: {
    rateLimitPlans?: Readonly<Record<Plan, PlanLimits>>;
    rateLimitWindows?: RateLimitWindows;
    /** Where the rate-limit counters live (default: memory); the server closes it when it stops. */
    rateLimitStore?: RateLimitStore;
    /** The server's logger (default: silent), for tests that read what it logs. */
    logger?: Logger;
  } = {},
): Promise<TestServer> {
  const storage = await driver.open();
  const app = await createApp({
    storage,
    logger: options.logger ?? createLogger({ level: "silent" }),
    cursorSecret: "test-cursor-secret-0123456789",
    rateLimitPlans: options.rateLimitPlans ?? unlimited,
    ...(options.rateLimitWindows ? { rateLimitWindows: options.rateLimitWindows } : {}),
    ...(options.rateLimitStore ? { rateLimitStore: options.rateLimitStore } : {}),
    drainTimeoutMs: 1000,
  });
  const url = await app.listen(0, "127.0.0.1");

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
    app,
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
      await app.stop();
      await storage.close();
    },
  };
}
