// The server's entry point: `node src/main.ts` (npm start). Builds the process from the environment
// (src/server.ts), starts it, and stops it gracefully on SIGTERM or SIGINT. boot.ts makes module
// loading fast, so the rest is imported after it.
import "./boot.ts";

const { ConfigError, loadConfig } = await import("./config.ts");
const { createServer } = await import("./server.ts");
const { SchemaNotCurrentError } = await import("./storage/migrator.ts");
const { createLogger } = await import("./logger.ts");

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`configuration: ${error.message}`);
  process.exit(1);
}
const logger = createLogger({ level: config.logLevel });

let server;
try {
  server = await createServer(config, { logger });
} catch (error) {
  // With MIGRATE_ON_START=false a schema that is behind stops the process with what to run, not a stack trace.
  if (!(error instanceof SchemaNotCurrentError)) throw error;
  logger.fatal({ pending: error.pending }, `${error.message} (or start with MIGRATE_ON_START=true)`);
  process.exit(1);
}
await server.start();

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "stopping: draining requests and jobs in flight");
    server.stop().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "unclean stop");
        process.exit(1);
      },
    );
  });
}
