// The `pbs` commands, in one place: parsing (node:util parseArgs) and execution against a database.
// Both ways of running a command use this module: `pbs` opening storage itself, and a server
// executing it for `pbs` through its admin socket (see run-pbs.ts for when each happens). Execution
// renders the outcome both ways — text for people, JSON for scripts — so the two paths print
// exactly the same thing.
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Database } from "../storage/index.ts";
import type { MigrationReport } from "../storage/migrator.ts";
import { environments, plans, type AuditEntry, type Environment, type Plan } from "../storage/schema.ts";
import { listAuditLog, recordAdminAction } from "../domain/audit-log.ts";
import { addMember, memberRoles, type MemberRole } from "../domain/members.ts";
import { createOAuthClient } from "../domain/oauth-clients.ts";
import { queueDepths } from "../domain/fair-share.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../domain/errors.ts";
import {
  createApiKey,
  expiryChoices,
  keyStatus,
  listApiKeys,
  revokeApiKey,
  validScopes,
  type ApiKeyRecord,
  type ExpiryChoice,
  type Scope,
} from "../domain/keys.ts";
import { createWorkspace, ensureWorkspace, findWorkspaceBySlug } from "../domain/workspaces.ts";
import { LISTEN_USAGE } from "./listen-usage.ts";
import { MCP_USAGE } from "./mcp-stdio.ts";
import { WAIT_USAGE } from "./wait.ts";

export const USAGE = `pbs — administration of the Project Builder API (what workspace settings offer)

Usage:
  pbs keys create --workspace <slug> --name <name> [--scopes a,b] [--env live|test]
                  [--expires 30d|90d|1y|none | --expires-at <ISO time>] [--json]
      Creates an API key (and the workspace, when it is new). The secret is printed once,
      alone on the last line of output; with --json, as "secret" in one JSON object.
  pbs keys list --workspace <slug> [--json]
  pbs keys revoke <key id> [--json]
  pbs audit --workspace <slug> | --unattributed [--limit N] [--json]
      The workspace's most recent API requests and administrative actions, newest first
      (N: 1–1000, default 50); with --unattributed, those of no workspace: requests refused before
      a key, session or application was identified (floods show as one row with a count).
  pbs members add --workspace <slug> --email <address> --role owner|admin|member --password-stdin [--json]
      Adds a person to the workspace's settings console (creating their sign-in when the email is
      new, with the password read from standard input; at least 12 characters).
  pbs oauth-clients create --name <name> --redirect-uri <uri> [--redirect-uri <uri>…] [--public] [--json]
      Registers an OAuth application. Prints its client id and, for a confidential client, its
      secret, once. A public client (--public) has no secret and must use PKCE.
  pbs workspaces create --slug <slug> [--name <name>] [--plan free|pro|team|enterprise] [--json]
  pbs queue [--json]
      Agent runs and deployment builds waiting and in progress, per workspace environment (each
      has its plan's share of the workers), the deepest queue first.
  pbs migrate [--json]
      Applies the database migrations this release has and the database lacks, and prints them.
      No other command migrates: on a database that is behind they stop and say to run this.
  ${MCP_USAGE}
  ${LISTEN_USAGE}
  ${WAIT_USAGE}
  pbs --help

Scopes: projects:read, projects:write, deployments:read, deployments:write, agents:run,
        files:read, files:write, billing:read, webhooks:read, webhooks:write, * (all; the default)

Storage: DATABASE_URL when set, else the embedded database in DATA_DIR (default ./data). While a
server owns that data directory, pbs sends the command to it through DATA_DIR/admin.sock.
Exit status: 0 done, 1 failed, 2 bad usage.`;

export type Command =
  | { readonly name: "help" }
  | { readonly name: "migrate"; readonly json: boolean }
  | {
      readonly name: "keys.create";
      readonly workspace: string;
      readonly keyName: string;
      readonly scopes: readonly Scope[];
      readonly environment: Environment;
      /** A choice, or an explicit ISO time. */
      readonly expires: ExpiryChoice | { readonly at: string };
      readonly json: boolean;
    }
  | { readonly name: "keys.list"; readonly workspace: string; readonly json: boolean }
  | { readonly name: "keys.revoke"; readonly keyId: string; readonly json: boolean }
  | { readonly name: "audit"; readonly workspace: string | null; readonly limit: number; readonly json: boolean }
  | { readonly name: "queue"; readonly json: boolean }
  | {
      readonly name: "workspaces.create";
      readonly slug: string;
      readonly workspaceName: string | undefined;
      readonly plan: Plan;
      readonly json: boolean;
    }
  | {
      readonly name: "members.add";
      readonly workspace: string;
      readonly email: string;
      readonly role: MemberRole;
      /** The password comes from standard input (never argv, which other users can read in `ps`). */
      readonly passwordStdin: true;
      readonly json: boolean;
    }
  | {
      readonly name: "oauth-clients.create";
      readonly clientName: string;
      readonly redirectUris: readonly string[];
      readonly public: boolean;
      readonly json: boolean;
    };

/** What a command reads besides its arguments: standard input, for `--password-stdin`. */
export interface CommandInput {
  readonly stdin?: string;
}

/** Whether the command reads standard input (pbs reads it before running the command anywhere). */
export function readsStdin(command: Command): boolean {
  return command.name === "members.add";
}

/** What a command printed: `text` for people, `json` for `--json`. */
export interface CommandOutput {
  readonly text: string;
  readonly json: unknown;
}

/** The command line is wrong: print the message and exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A well-formed command that could not be carried out. `exitCode` is what `pbs` exits with. */
export class CommandError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = "CommandError";
    this.exitCode = exitCode;
  }
}

const KEY_ID = /^key_[0-9A-Za-z]{8,64}$/;
const DEFAULT_AUDIT_LIMIT = 50;
const MAX_AUDIT_LIMIT = 1000;

/** Parses `pbs` arguments (without `node pbs.ts`); throws UsageError. */
export function parseCommand(argv: readonly string[]): Command {
  const [group, action] = argv;
  if (group === undefined || group === "--help" || group === "-h" || group === "help") return { name: "help" };
  if (group === "migrate") {
    const { values } = parse(argv.slice(1), common);
    if (values.help) return { name: "help" };
    return { name: "migrate", json: values.json === true };
  }
  if (group === "queue") {
    const { values } = parse(argv.slice(1), common);
    if (values.help) return { name: "help" };
    return { name: "queue", json: values.json === true };
  }
  if (group === "audit") {
    const { values } = parse(argv.slice(1), {
      ...stringOptions("workspace", "limit"),
      unattributed: { type: "boolean" },
      ...common,
    });
    if (values.help) return { name: "help" };
    if (values.unattributed && values.workspace !== undefined)
      throw new UsageError("pbs audit takes --workspace <slug> or --unattributed, not both.");
    const workspace = values.unattributed ? null : required(values.workspace, "--workspace");
    return { name: "audit", workspace, limit: limit(values.limit), json: values.json === true };
  }
  if (group === "keys" && action === "create") {
    const { values } = parse(argv.slice(2), {
      ...stringOptions("workspace", "name", "scopes", "env", "expires", "expires-at"),
      ...common,
    });
    if (values.help) return { name: "help" };
    return {
      name: "keys.create",
      workspace: required(values.workspace, "--workspace"),
      keyName: required(values.name, "--name"),
      scopes: scopeList(values.scopes),
      environment: oneOf(values.env ?? "live", environments, "--env"),
      expires: expiry(values.expires, values["expires-at"]),
      json: values.json === true,
    };
  }
  if (group === "keys" && action === "list") {
    const { values } = parse(argv.slice(2), { ...stringOptions("workspace"), ...common });
    if (values.help) return { name: "help" };
    return { name: "keys.list", workspace: required(values.workspace, "--workspace"), json: values.json === true };
  }
  if (group === "keys" && action === "revoke") {
    const { values, positionals } = parse(argv.slice(2), common, true);
    if (values.help) return { name: "help" };
    if (positionals.length !== 1)
      throw new UsageError("pbs keys revoke takes exactly one key id, e.g. pbs keys revoke key_…");
    const keyId = positionals[0]!;
    if (!KEY_ID.test(keyId)) throw new UsageError(`"${keyId}" is not a key id (key_ and 8–64 letters and digits)`);
    return { name: "keys.revoke", keyId, json: values.json === true };
  }
  if (group === "workspaces" && action === "create") {
    const { values } = parse(argv.slice(2), { ...stringOptions("slug", "name", "plan"), ...common });
    if (values.help) return { name: "help" };
    return {
      name: "workspaces.create",
      slug: required(values.slug, "--slug"),
      workspaceName: values.name,
      plan: oneOf(values.plan ?? "free", plans, "--plan"),
      json: values.json === true,
    };
  }
  if (group === "members" && action === "add") {
    const { values } = parse(argv.slice(2), {
      ...stringOptions("workspace", "email", "role"),
      "password-stdin": { type: "boolean" },
      ...common,
    });
    if (values.help) return { name: "help" };
    if (values["password-stdin"] !== true)
      throw new UsageError("--password-stdin is required: pipe the password in (never on the command line)");
    return {
      name: "members.add",
      workspace: required(values.workspace, "--workspace"),
      email: required(values.email, "--email"),
      role: oneOf(required(values.role, "--role"), memberRoles, "--role"),
      passwordStdin: true,
      json: values.json === true,
    };
  }
  if (group === "oauth-clients" && action === "create") {
    const { values } = parse(argv.slice(2), {
      ...stringOptions("name"),
      "redirect-uri": { type: "string", multiple: true },
      public: { type: "boolean" },
      ...common,
    });
    if (values.help) return { name: "help" };
    const redirectUris = values["redirect-uri"] ?? [];
    if (redirectUris.length === 0) throw new UsageError("--redirect-uri is required (repeat it for several)");
    return {
      name: "oauth-clients.create",
      clientName: required(values.name, "--name"),
      redirectUris,
      public: values.public === true,
      json: values.json === true,
    };
  }
  const words = [group, action].filter((word) => word !== undefined && !word.startsWith("-")).join(" ");
  throw new UsageError(`unknown command "pbs ${words}"; see pbs --help`);
}

const common = { json: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

/** Options that each take one value, e.g. `--workspace <slug>`. */
function stringOptions<const Name extends string>(...names: Name[]): Record<Name, { type: "string" }> {
  return Object.fromEntries(names.map((name) => [name, { type: "string" }])) as Record<Name, { type: "string" }>;
}

function parse<const O extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: O,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

function oneOf<const T extends readonly string[]>(value: string, allowed: T, flag: string): T[number] {
  if (!allowed.includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(", ")}`);
  return value;
}

function scopeList(raw: string | undefined): Scope[] {
  try {
    return validScopes(raw === undefined ? ["*"] : raw.split(","));
  } catch (error) {
    throw new UsageError(`--scopes: ${(error as Error).message}`);
  }
}

function expiry(choice: string | undefined, at: string | undefined): ExpiryChoice | { at: string } {
  if (choice !== undefined && at !== undefined) throw new UsageError("give --expires or --expires-at, not both");
  if (at !== undefined) {
    // An ISO 8601 date-time with its offset, so the moment is unambiguous.
    if (
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(at) ||
      Number.isNaN(Date.parse(at))
    ) {
      throw new UsageError("--expires-at must be an ISO time with its offset, e.g. 2027-01-31T00:00:00Z");
    }
    return { at };
  }
  return oneOf(choice ?? "none", expiryChoices, "--expires");
}

function limit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_AUDIT_LIMIT;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > MAX_AUDIT_LIMIT)
    throw new UsageError(`--limit must be an integer from 1 to ${MAX_AUDIT_LIMIT}`);
  return value;
}

/** Applies the pending migrations of the storage the command runs on (`Storage.migrate`). */
export type Migrate = () => Promise<MigrationReport>;

/**
 * Carries out a command. Throws CommandError (exit 1 for a missing or conflicting thing, 2 for a
 * value the domain refuses); any other error is a bug. `migrate` is what `pbs migrate` calls.
 */
export async function executeCommand(
  db: Database,
  command: Command,
  input: CommandInput = {},
  migrate?: Migrate,
): Promise<CommandOutput> {
  if (command.name === "migrate") {
    if (!migrate) throw new CommandError("this process cannot migrate the database", 1);
    return migrationOutput(await migrate());
  }
  try {
    return await execute(db, command, input);
  } catch (error) {
    if (error instanceof InvalidInputError) throw new CommandError(error.message, 2);
    if (error instanceof NotFoundError || error instanceof ConflictError) throw new CommandError(error.message, 1);
    throw error;
  }
}

function migrationOutput({ applied, latest }: MigrationReport): CommandOutput {
  const current = `The schema is up to date (last migration ${latest}).`;
  const lines =
    applied.length === 0
      ? [`Nothing to apply. ${current}`]
      : [...applied.map(({ tag, ms }) => `Applied ${tag} in ${ms} ms.`), current];
  return { text: lines.join("\n"), json: { applied, latest } };
}

/** `pbs` as the audit log's actor of the actions it takes. */
const PBS = "pbs";

async function execute(db: Database, command: Command, input: CommandInput): Promise<CommandOutput> {
  switch (command.name) {
    case "help":
      return { text: USAGE, json: { usage: USAGE } };
    case "migrate":
      throw new Error("executeCommand runs migrate itself");

    case "workspaces.create": {
      const workspace = await createWorkspace(db, {
        slug: command.slug,
        name: command.workspaceName,
        plan: command.plan,
      });
      return {
        text: `Created workspace ${workspace.slug} (${workspace.id}), plan ${workspace.plan}.`,
        json: {
          id: workspace.id,
          slug: workspace.slug,
          name: workspace.name,
          plan: workspace.plan,
          created_at: workspace.createdAt.toISOString(),
        },
      };
    }

    case "keys.create": {
      const { key, secret, workspace, created } = await db.transaction(async (tx) => {
        const { workspace, created } = await ensureWorkspace(tx, { slug: command.workspace });
        const expires = typeof command.expires === "string" ? command.expires : new Date(command.expires.at);
        const { key, secret } = await createApiKey(tx, {
          workspaceId: workspace.id,
          name: command.keyName,
          environment: command.environment,
          scopes: command.scopes,
          expires,
          createdBy: PBS,
        });
        await recordAdminAction(tx, {
          workspaceId: workspace.id,
          action: "api_key.created",
          actor: PBS,
          target: key.id,
        });
        return { key, secret, workspace, created };
      });
      const lines = [
        ...(created ? [`Created workspace ${workspace.slug} (${workspace.id}).`] : []),
        `Created key ${key.id} "${key.name}" in workspace ${workspace.slug}: ${key.environment}, scopes ${key.scopes.join(",")}, expires ${key.expiresAt?.toISOString() ?? "never"}.`,
        "The secret is shown this once; store it now:",
        secret,
      ];
      return {
        text: lines.join("\n"),
        json: { ...keyJson(key), secret, workspace: workspace.slug, workspace_created: created },
      };
    }

    case "keys.list": {
      const workspace = await existingWorkspace(db, command.workspace);
      const keys = await listApiKeys(db, workspace.id);
      const now = new Date();
      const rows = keys.map((key) => [
        key.id,
        key.name,
        key.environment,
        `${key.displayPrefix}…${key.last4}`,
        key.scopes.join(","),
        keyStatus(key, now),
        key.createdAt.toISOString(),
        key.expiresAt?.toISOString() ?? "never",
        key.lastUsedAt?.toISOString() ?? "never",
      ]);
      const text = keys.length
        ? table(["ID", "NAME", "ENV", "KEY", "SCOPES", "STATUS", "CREATED", "EXPIRES", "LAST USED"], rows)
        : `Workspace ${workspace.slug} has no keys.`;
      return {
        text,
        json: keys.map((key) => ({ ...keyJson(key), workspace: workspace.slug, status: keyStatus(key, now) })),
      };
    }

    case "keys.revoke": {
      const before = new Date();
      const { key, already } = await db.transaction(async (tx) => {
        const key = await revokeApiKey(tx, command.keyId, before);
        if (!key) throw new NotFoundError(`there is no key ${command.keyId}`);
        const already = key.revokedAt!.getTime() < before.getTime();
        if (!already)
          await recordAdminAction(tx, {
            workspaceId: key.workspaceId,
            action: "api_key.revoked",
            actor: PBS,
            target: key.id,
          });
        return { key, already };
      });
      const revokedAt = key.revokedAt!;
      return {
        text: already
          ? `Key ${key.id} was already revoked at ${revokedAt.toISOString()}.`
          : `Revoked key ${key.id} ("${key.name}"); it no longer authenticates.`,
        json: { ...keyJson(key), already_revoked: already },
      };
    }

    case "members.add": {
      const password = input.stdin?.replace(/\r?\n$/, "");
      if (!password)
        throw new CommandError(
          "no password on standard input; pipe it in, e.g. printf '%s' \"$PASSWORD\" | pbs members add …",
          2,
        );
      const workspace = await existingWorkspace(db, command.workspace);
      const { user, userCreated } = await db.transaction(async (tx) => {
        const added = await addMember(tx, {
          workspaceId: workspace.id,
          email: command.email,
          role: command.role,
          password,
        });
        await recordAdminAction(tx, {
          workspaceId: workspace.id,
          action: "member.added",
          actor: PBS,
          target: added.user.id,
        });
        return added;
      });
      const note = userCreated ? "" : " (an existing account: its password is unchanged)";
      return {
        text: `Added ${user.email} (${user.id}) to workspace ${workspace.slug} as ${command.role}${note}. Sign in at /settings.`,
        json: {
          user_id: user.id,
          email: user.email,
          workspace: workspace.slug,
          role: command.role,
          user_created: userCreated,
        },
      };
    }

    case "oauth-clients.create": {
      const { client, secret } = await db.transaction(async (tx) => {
        const created = await createOAuthClient(tx, {
          name: command.clientName,
          redirectUris: command.redirectUris,
          public: command.public,
        });
        await recordAdminAction(tx, {
          workspaceId: null,
          action: "oauth_client.created",
          actor: PBS,
          target: created.client.id,
        });
        return created;
      });
      const lines = [
        `Registered OAuth application "${client.name}" (${secret ? "confidential" : "public: PKCE required"}).`,
        `Redirect URIs: ${client.redirectUris.join(" ")}`,
        `Client id: ${client.id}`,
        ...(secret ? ["The client secret is shown this once; store it now:", secret] : []),
      ];
      return {
        text: lines.join("\n"),
        json: {
          client_id: client.id,
          name: client.name,
          redirect_uris: client.redirectUris,
          public: !secret,
          ...(secret ? { client_secret: secret } : {}),
        },
      };
    }

    case "audit": {
      const workspace = command.workspace === null ? null : await existingWorkspace(db, command.workspace);
      const { entries } = await listAuditLog(db, { workspaceId: workspace?.id ?? null }, { limit: command.limit });
      const rows = entries.map((entry) => [
        entry.occurredAt.toISOString(),
        entry.action ? "ACTION" : (entry.method ?? "-"),
        (entry.action ? `${entry.action} ${entry.target ?? ""}`.trim() : (entry.path ?? "-")) +
          (entry.tool ? ` (via MCP: ${entry.tool})` : "") +
          (entry.count > 1 ? ` (×${entry.count})` : ""),
        entry.status === null ? "-" : String(entry.status),
        entry.action ? (entry.actor ?? "-") : (entry.keyId ?? entry.clientId ?? "-"),
        entry.ip ?? "-",
        entry.latencyMs === null ? "-" : `${entry.latencyMs}ms`,
        entry.requestId ?? "-",
      ]);
      const text = entries.length
        ? table(["TIME", "METHOD", "PATH/ACTION", "STATUS", "BY", "IP", "LATENCY", "REQUEST"], rows)
        : workspace
          ? `No requests recorded for workspace ${workspace.slug}.`
          : "No requests recorded outside a workspace.";
      return { text, json: entries.map(auditJson) };
    }
    case "queue": {
      const tenants = await queueDepths(db);
      const rows = tenants.map((tenant) => [
        tenant.workspace,
        tenant.environment,
        tenant.plan,
        String(tenant.runsQueued),
        String(tenant.runsRunning),
        String(tenant.buildsQueued),
        String(tenant.buildsBuilding),
      ]);
      const text = tenants.length
        ? table(["WORKSPACE", "ENV", "PLAN", "RUNS QUEUED", "RUNNING", "BUILDS QUEUED", "BUILDING"], rows)
        : "No agent runs or deployment builds are waiting or in progress.";
      return {
        text,
        json: tenants.map((tenant) => ({
          workspace: tenant.workspace,
          environment: tenant.environment,
          plan: tenant.plan,
          runs_queued: tenant.runsQueued,
          runs_running: tenant.runsRunning,
          builds_queued: tenant.buildsQueued,
          builds_building: tenant.buildsBuilding,
        })),
      };
    }
  }
}

async function existingWorkspace(db: Database, slug: string) {
  const workspace = await findWorkspaceBySlug(db, slug);
  if (!workspace) throw new NotFoundError(`there is no workspace "${slug}"`);
  return workspace;
}

function keyJson(key: ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    workspace_id: key.workspaceId,
    environment: key.environment,
    scopes: key.scopes,
    display_prefix: key.displayPrefix,
    last4: key.last4,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}

function auditJson(entry: AuditEntry) {
  return {
    id: entry.id,
    occurred_at: entry.occurredAt.toISOString(),
    workspace_id: entry.workspaceId,
    key_id: entry.keyId,
    client_id: entry.clientId,
    action: entry.action,
    actor: entry.actor,
    target: entry.target,
    method: entry.method,
    route: entry.route,
    path: entry.path,
    status: entry.status,
    ip: entry.ip,
    user_agent: entry.userAgent,
    request_id: entry.requestId,
    latency_ms: entry.latencyMs,
    count: entry.count,
    tool: entry.tool,
  };
}

/** Left-aligned columns separated by two spaces. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
