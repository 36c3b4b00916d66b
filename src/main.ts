// The server's entry point: `node src/main.ts` (npm start). Builds the process from the environment
// (src/server.ts), starts it, and stops it gracefully on SIGTERM or SIGINT. boot.ts makes module
// loading fast, so the rest is imported after it.
import "./boot.ts";

const { ConfigError, loadConfig } = await import("./config.ts");
const { createServer, NEXT_COMMAND } = await import("./server.ts");
const { SchemaNotCurrentError } = await import("./storage/migrator.ts");
const { createLogger } = await import("./logger.ts");

/** Ends the process with one line saying what to change: no stack trace for what an operator sets. */
function refuse(message: string): never {
  console.error(`configuration: ${message}`);
  process.exit(1);
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  refuse(error.message);
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
try {
  const { url, appsUrl } = await server.start();
  // People starting it in a terminal get one line to read; a log collector gets the same as fields.
  if (process.stdout.isTTY) {
    const origin = config.publicUrl ?? url;
    console.log(
      `Project Builder API on ${origin} (docs ${origin}/docs, console ${origin}/settings); apps on ${appsUrl}. Next: ${NEXT_COMMAND}`,
    );
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  await server.stop().catch(() => {});
  refuse(error.message);
}

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
