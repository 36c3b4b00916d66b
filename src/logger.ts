// JSON logs (pino) on stdout. One root logger per process; each request logs through a child that
// carries its request_id, so every line of a request can be found by the id the client saw.
import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

// Secrets must never reach a log line: bearer keys travel in Authorization, webhook signing
// secrets and key secrets in objects named `secret`.
export const redactedPaths = [
  "authorization",
  "headers.authorization",
  "req.headers.authorization",
  "request.headers.authorization",
  "*.headers.authorization",
  "secret",
  "*.secret",
];

export function createLogger(options: { level: LogLevel; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: "project-builder-api" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactedPaths, censor: "[redacted]" },
      // Errors logged as `{ err }` keep their stack (for the operator; never sent to clients).
      serializers: { err: pino.stdSerializers.err },
    },
    options.destination,
  );
}

/** The logger of one request: every line it writes carries `request_id`. */
export function requestLogger(logger: Logger, requestId: string): Logger {
  return logger.child({ request_id: requestId });
}
