// The process's configuration: environment variables read and validated once, at start, so a typo
// fails loudly before anything listens, and the rest of the code gets typed values.
import { join, resolve } from "node:path";

export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute. Holds the embedded database (when DATABASE_URL is unset) and the admin socket. */
  readonly dataDir: string;
  /** When set, storage is this PostgreSQL server (node-postgres) instead of PGlite in dataDir. */
  readonly databaseUrl: string | undefined;
  /** Connections the node-postgres pool may open. */
  readonly databasePoolSize: number;
  readonly redisUrl: string | undefined;
  /** Signs pagination cursors; when unset, a secret kept in the database (shared by every replica). */
  readonly cursorSecret: string | undefined;
  readonly logLevel: LogLevel;
  /** The unix socket through which `pbs` reaches a server that owns the embedded database. */
  readonly adminSocketPath: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates the configuration; throws ConfigError naming the variable at fault. */
export function loadConfig(env: Env = process.env): Config {
  // An empty variable counts as unset: `DATABASE_URL= npm start` means "no database URL".
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const dataDir = resolve(read("DATA_DIR") ?? "./data");
  return Object.freeze({
    port: integer("PORT", read("PORT"), 8080, 0, 65535),
    host: read("HOST") ?? "0.0.0.0",
    dataDir,
    databaseUrl: url("DATABASE_URL", read("DATABASE_URL"), ["postgres:", "postgresql:"]),
    databasePoolSize: integer("DATABASE_POOL_SIZE", read("DATABASE_POOL_SIZE"), 10, 1, 1000),
    redisUrl: url("REDIS_URL", read("REDIS_URL"), ["redis:", "rediss:"]),
    cursorSecret: secret("CURSOR_SECRET", read("CURSOR_SECRET")),
    logLevel: oneOf("LOG_LEVEL", read("LOG_LEVEL"), logLevels, "info"),
    adminSocketPath: join(dataDir, "admin.sock"),
  });
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function url(name: string, raw: string | undefined, protocols: readonly string[]): string | undefined {
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value may hold a password: name the variable, not its content.
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  }
  return raw;
}

function oneOf<const T extends readonly string[]>(name: string, raw: string | undefined, allowed: T, fallback: T[number]): T[number] {
  if (raw === undefined) return fallback;
  const value = raw.toLowerCase();
  if (!allowed.includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function secret(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && Buffer.byteLength(raw) < 16) throw new ConfigError(`${name} must be at least 16 bytes long`);
  return raw;
}
