// pbs: the admin CLI (workspaces, API keys, audit log). Usage: `pbs --help`, or USAGE in commands.ts.
//
// Where a command runs — decided so that pbs works while the server runs, on either driver:
//   - DATABASE_URL set: pbs connects to PostgreSQL itself; servers and pbs share the database.
//   - Embedded PGlite (the default): only one process may open DATA_DIR. If a server owns it, pbs
//     sends its arguments over the server's admin socket (DATA_DIR/admin.sock, owner-only) and the
//     server runs the command. If nothing answers on the socket, pbs opens DATA_DIR itself, which
//     takes the directory's lock, so a server starting meanwhile waits for nothing and fails clearly.
// Either way the command is parsed and executed by commands.ts, so output is identical.
//
// Only `pbs migrate` changes the schema. Every other command opens the database as it is and stops
// with a message naming `pbs migrate` when its schema is behind this release (or absent): an
// operator's tool must not migrate a production database as a side effect of listing keys.
import { loadConfig, type Config } from "../config.ts";
import { setPasswordHashCost } from "../domain/passwords.ts";
import { openStorage } from "../storage/index.ts";
import { SchemaNotCurrentError } from "../storage/migrator.ts";
import { DataDirInUseError } from "../storage/pglite.ts";
import { sendToAdminSocket, type AdminReply } from "./admin-socket.ts";
import {
  CommandError,
  executeCommand,
  parseCommand,
  readsStdin,
  USAGE,
  UsageError,
  type Command,
  type CommandInput,
} from "./commands.ts";

/** The executable (src/cli/pbs.ts): answers its exit code. */
export async function main(argv: string[]): Promise<number> {
  // Clients of a running server rather than administration commands: no storage of their own.
  if (argv[0] === "mcp") return (await import("./mcp-stdio.ts")).runMcpProxy(argv.slice(1));
  if (argv[0] === "wait") return (await import("./wait.ts")).runWait(argv.slice(1));
  if (argv[0] === "listen") {
    // The client library it follows the stream with is packages/client's source, which a checkout
    // has and the server's image (src/ and generated/ only) does not.
    const listen = await import("./listen.ts").catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ERR_MODULE_NOT_FOUND") throw error;
      process.stderr.write(
        `pbs: listen needs the client library of a checkout of the repository (packages/client): ${error.message}\n`,
      );
      return undefined;
    });
    return listen ? listen.runListen(argv.slice(1)) : 1;
  }
  const result = await runAdminCommand(argv, process.env, {
    stdin: readStdin,
    progress: (message) => process.stderr.write(`pbs: ${message}\n`),
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.code;
}

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Parses and carries out an administration command (every one but `mcp`, `listen` and `wait`) with
 * `env` as its environment, reading standard input from `stdin` when the command takes it: what the
 * executable does, answered as its exit code and output. `progress` hears a migration's steps as
 * they happen (otherwise they lead the error output).
 */
export async function runAdminCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: { readonly stdin?: () => Promise<string>; readonly progress?: (message: string) => void } = {},
): Promise<CommandResult> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { code: 2, stdout: "", stderr: `pbs: ${error.message}\n` };
  }
  if (command.name === "help") return { code: 0, stdout: `${USAGE}\n`, stderr: "" };
  const input: CommandInput = readsStdin(command) ? { stdin: (await io.stdin?.()) ?? "" } : {};
  const config = loadConfig(env);
  setPasswordHashCost(config.passwordHashCost);
  const steps: string[] = [];
  const progress = io.progress ?? ((message: string) => void steps.push(`pbs: ${message}\n`));
  const reply = await run(config, argv, command, input, progress);
  if (!reply.ok) return { code: reply.exitCode, stdout: "", stderr: `${steps.join("")}pbs: ${reply.message}\n` };
  const json = "json" in command && command.json;
  const stdout = json ? `${JSON.stringify(reply.output.json, null, 2)}\n` : `${reply.output.text}\n`;
  return { code: 0, stdout, stderr: steps.join("") };
}

/** All of standard input (up to 64 KiB): a password piped in. */
async function readStdin(): Promise<string> {
  process.stdin.setEncoding("utf8");
  if (process.stdin.isTTY) process.stderr.write("pbs: reading the password from standard input (end with Ctrl-D)\n");
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk as string;
    if (text.length > 64 * 1024) throw new Error("standard input is longer than 64 KiB");
  }
  return text;
}

async function run(
  config: Config,
  argv: readonly string[],
  command: Command,
  input: CommandInput,
  progress: (message: string) => void,
): Promise<AdminReply> {
  if (!config.databaseUrl) {
    const reply = await sendToAdminSocket(config.adminSocketPath, argv, input);
    if (reply) return reply;
  }
  let storage;
  try {
    storage = await openStorage(config, { migrations: command.name === "migrate" ? "none" : "require" });
  } catch (error) {
    if (error instanceof SchemaNotCurrentError) return { ok: false, exitCode: 1, message: error.message };
    if (!(error instanceof DataDirInUseError)) throw error;
    return {
      ok: false,
      exitCode: 1,
      message: `${error.message}, which does not answer on ${config.adminSocketPath}; stop it or retry when it is up`,
    };
  }
  // The application's migrations, then pg-boss's own schema (servers that do not migrate only check it).
  const migrate = async () => {
    const report = await storage.migrate({ progress });
    const { migrateJobQueue } = await import("../jobs/queue.ts");
    await migrateJobQueue(storage);
    return report;
  };
  try {
    return { ok: true, output: await executeCommand(storage.db, command, input, migrate) };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { ok: false, message: error.message, exitCode: error.exitCode };
  } finally {
    await storage.close();
  }
}
