// The admin socket: how `pbs` reaches the embedded database while a server has it open.
//
// Only one process may open a PGlite data directory, so while the server runs, `pbs` cannot open
// it. The server therefore listens on a unix socket inside DATA_DIR (the directory is 0700, the
// socket 0600: only the owner of the data may connect; no network exposure, no credentials to
// manage) and runs the commands `pbs` sends through the same code `pbs` would run itself
// (commands.ts). With DATABASE_URL no socket is needed: `pbs` connects to PostgreSQL directly.
//
// Protocol: one request per connection. The client writes `{ argv, input }` (input: what the command
// read from pbs's standard input, e.g. a password) as one JSON line; the server
// answers one JSON line, `{ ok: true, output }` or `{ ok: false, message, exitCode }`, and closes.
import { chmod, rm } from "node:fs/promises";
import { createConnection, createServer, type Socket } from "node:net";
import type { Logger } from "pino";
import type { Storage } from "../storage/index.ts";
import {
  CommandError,
  executeCommand,
  parseCommand,
  UsageError,
  type CommandInput,
  type CommandOutput,
} from "./commands.ts";

export type AdminReply =
  | { readonly ok: true; readonly output: CommandOutput }
  | { readonly ok: false; readonly message: string; readonly exitCode: number };

export interface AdminSocket {
  readonly path: string;
  /** Stops accepting commands and removes the socket file; commands under way finish first. */
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 64 * 1024;

/** Serves `pbs` commands on `socketPath`. Call it only while this process owns the data directory. */
export async function startAdminSocket(options: {
  storage: Storage;
  socketPath: string;
  logger: Logger;
}): Promise<AdminSocket> {
  const { storage, socketPath, logger } = options;
  // A socket file left by a crash would make listen fail. This process holds the data directory's
  // lock, so no live server can be behind it.
  await rm(socketPath, { force: true });
  const server = createServer((socket) => {
    void serve(socket, storage, logger);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  logger.info({ socket: socketPath }, "admin socket listening");
  return {
    path: socketPath,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

async function serve(socket: Socket, storage: Storage, logger: Logger): Promise<void> {
  socket.setEncoding("utf8");
  socket.on("error", () => {}); // a client that hangs up early is not the server's problem
  let reply: AdminReply;
  try {
    const { argv, input } = await readRequest(socket);
    const command = parseCommand(argv);
    logger.info({ command: command.name }, "admin command");
    const migrate = () => storage.migrate({ progress: (message) => logger.info({ command: command.name }, message) });
    reply = { ok: true, output: await executeCommand(storage.db, command, input, migrate) };
  } catch (error) {
    if (error instanceof UsageError) reply = { ok: false, message: error.message, exitCode: 2 };
    else if (error instanceof CommandError) reply = { ok: false, message: error.message, exitCode: error.exitCode };
    else {
      logger.error({ err: error }, "admin command failed");
      reply = { ok: false, message: "the server could not carry out the command; see its log", exitCode: 1 };
    }
  }
  socket.end(`${JSON.stringify(reply)}\n`);
}

interface AdminRequest {
  argv: string[];
  input: CommandInput;
}

/** The first line the client sends. (Not `for await`: leaving it early would destroy the socket.) */
function readRequest(socket: Socket): Promise<AdminRequest> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const onData = (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf("\n");
      if (newline < 0) {
        if (buffered.length > MAX_REQUEST_BYTES) done(new UsageError("request too large"));
        return;
      }
      try {
        const request = JSON.parse(buffered.slice(0, newline)) as Partial<AdminRequest> | null;
        const { argv, input } = request ?? {};
        if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === "string")) throw new Error();
        if (input?.stdin !== undefined && typeof input.stdin !== "string") throw new Error();
        done(undefined, { argv, input: input?.stdin === undefined ? {} : { stdin: input.stdin } });
      } catch {
        done(new UsageError("malformed request"));
      }
    };
    const onEnd = () => done(new UsageError("request ended early"));
    const done = (error?: Error, request?: AdminRequest) => {
      socket.off("data", onData).off("end", onEnd);
      if (error) reject(error);
      else resolve(request!);
    };
    socket.on("data", onData).on("end", onEnd);
  });
}

/**
 * Sends `argv` to the server listening on `socketPath`. Undefined when no server answers there (no
 * socket file, or one left by a server that is gone); then the caller may open storage itself.
 */
export async function sendToAdminSocket(
  socketPath: string,
  argv: readonly string[],
  input: CommandInput = {},
  timeoutMs = 60_000,
): Promise<AdminReply | undefined> {
  const socket = createConnection({ path: socketPath });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ECONNREFUSED") return undefined;
    throw error;
  }
  socket.setEncoding("utf8");
  socket.setTimeout(timeoutMs, () =>
    socket.destroy(new Error(`the server did not answer within ${timeoutMs / 1000} s`)),
  );
  socket.write(`${JSON.stringify({ argv, input })}\n`);
  let response = "";
  for await (const chunk of socket) response += chunk as string;
  return JSON.parse(response) as AdminReply;
}
