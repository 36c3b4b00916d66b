// Composition root: configuration → logger → storage → rate-limit store → HTTP server, and the
// order of a graceful stop on SIGTERM/SIGINT (stop accepting, drain requests, close storage).
import { loadConfig } from "./config.ts";
import { createApp } from "./app.ts";
import { startAdminSocket } from "./cli/admin-socket.ts";
import { selectRateLimitStore } from "./http/rate-limit.ts";
import { createLogger } from "./logger.ts";
import { openStorage } from "./storage/index.ts";
import { sharedSecret } from "./storage/secrets.ts";

const config = loadConfig();
const logger = createLogger({ level: config.logLevel });
const storage = await openStorage(config);
const rateLimitStore = await selectRateLimitStore({
  redisUrl: config.redisUrl,
  pgPool: storage.driver === "postgres" ? storage.pool : undefined,
  onError: (error) => logger.warn({ err: error }, "rate-limit store unavailable; counting in memory"),
});
const app = await createApp({
  storage,
  logger,
  rateLimitStore,
  cursorSecret: config.cursorSecret ?? (await sharedSecret(storage.db, "cursor")),
});
// On the embedded database this process owns DATA_DIR, so `pbs` reaches it through this socket.
const admin = storage.driver === "pglite" ? await startAdminSocket({ db: storage.db, socketPath: config.adminSocketPath, logger }) : undefined;
const url = await app.listen(config.port, config.host);
logger.info({ url, storage: storage.driver }, "listening");

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "stopping: draining requests in flight");
  await app.stop();
  await admin?.close();
  await storage.close();
  logger.info("stopped");
}
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "unclean stop");
        process.exit(1);
      },
    );
  });
}
