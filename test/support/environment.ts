// The environment of the servers the tests start, in this process or as child processes.

/**
 * The environment of a server under test, as an operator would set it: both listeners on free
 * loopback ports, on the given database (a ProcessDatabase's `env`; for a server in this process
 * the data directory only holds its admin socket), cheap password hashes, and the job queue's and deliveries'
 * timings short, so work is picked up and a dead process's work retried within seconds.
 */
export function serverEnvironment(database: {
  readonly DATA_DIR: string;
  readonly DATABASE_URL?: string;
}): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    PORT: "0",
    APPS_PORT: "0",
    DATA_DIR: database.DATA_DIR,
    DATABASE_URL: database.DATABASE_URL ?? "",
    REDIS_URL: "",
    // The tests' cheap cost, set for the whole run by setup.ts.
    PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST ?? "",
    CURSOR_SECRET: "test-cursor-secret-0123456789",
    JOB_POLL_INTERVAL: "500ms",
    JOB_SUPERVISE_INTERVAL: "1s",
    JOB_RETRY_DELAY: "1s",
    JOB_RETRY_DELAY_MAX: "2s",
    WEBHOOK_POLL_INTERVAL: "100ms",
    WEBHOOK_ATTEMPT_TIMEOUT: "2s",
  };
}
