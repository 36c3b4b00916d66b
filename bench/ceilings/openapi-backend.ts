// Ceiling 2, the ceiling of this stack: openapi-backend on generated/openapi.yaml (configured as the
// server configures it: src/http/contract.ts) matching and validating each request, then ONE raw
// read on the same storage, answered as JSON:
// - listProjects: a keyset select of a page of the default project's workspace and environment
//   (`limit` rows, 20 by default, newest first; with a `cursor`, the rows after the position given
//   on the command line: no cursor is decoded or signed) — the ceiling of a list page;
// - any other operation: a primary-key read of a project, the path's {project_id} or the default
//   project for operations without one.
//   node bench/ceilings/openapi-backend.ts <port> <postgres://… | pglite data dir> <default project id> [<position JSON>]
// The body of a JSON request is parsed and validated; a multipart body is drained unvalidated.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { PGlite } from "@electric-sql/pglite";
import type { Document } from "openapi-backend";
import pg from "pg";
import { parse } from "yaml";
import { contractPath, openApiBackend, pipelineOperations } from "../../src/http/contract.ts";

const [port, storage, defaultProjectId, positionJson] = process.argv.slice(2) as [string, string, string, string];
const position =
  positionJson && positionJson !== "undefined"
    ? (JSON.parse(positionJson) as { created_at: string; id: string })
    : undefined;
const api = await openApiBackend(pipelineOperations(parse(readFileSync(contractPath, "utf8")) as Document));
const SELECT = "select * from projects where id = $1";
const PAGE =
  "select * from projects where workspace_id = $1 and environment = $2 order by created_at desc, id desc limit $3";
const PAGE_AFTER =
  "select * from projects where workspace_id = $1 and environment = $2 and (created_at, id) < ($4, $5) order by created_at desc, id desc limit $3";

let query: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
if (storage.startsWith("postgres")) {
  const pool = new pg.Pool({ connectionString: storage, max: 10 });
  query = async (text, params) => (await pool.query(text, params)).rows as Record<string, unknown>[];
} else {
  const db = await PGlite.create({ dataDir: storage });
  query = async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows;
}
const [home] = await query("select workspace_id, environment from projects where id = $1", [defaultProjectId]);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const url = new URL(request.url ?? "/", "http://localhost");
    const raw = await readBody(request);
    const json = (request.headers["content-type"] ?? "").startsWith("application/json");
    const req = {
      method: (request.method ?? "GET").toLowerCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers as Record<string, string | string[]>,
      body: json && raw.length ? (JSON.parse(raw.toString("utf8")) as unknown) : undefined,
    };
    const operation = api.matchOperation(req);
    if (!operation) return void response.writeHead(404).end();
    const result = api.validateRequest(req, operation);
    const aboutBody = (error: { instancePath: string; params: unknown }) =>
      error.instancePath.startsWith("/requestBody") ||
      (error.params as { missingProperty?: string }).missingProperty === "requestBody";
    const errors = (result.errors ?? []).filter((error) => json || !aboutBody(error));
    if (errors.length)
      return void response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify(errors[0]));
    let body: string;
    if (operation.operationId === "listProjects" && home) {
      const coerced = ((result.coerced as { query?: unknown }).query ?? {}) as { limit?: number; cursor?: string };
      const limit = Number(coerced.limit ?? 20);
      const params = [home.workspace_id, home.environment, limit];
      const rows =
        coerced.cursor && position
          ? await query(PAGE_AFTER, [...params, position.created_at, position.id])
          : await query(PAGE, params);
      body = JSON.stringify({ data: rows, next_cursor: rows.length === limit ? "more" : null });
    } else {
      const id = (result.coerced as { params?: Record<string, string> }).params?.project_id ?? defaultProjectId;
      body = JSON.stringify((await query(SELECT, [id]))[0]);
    }
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
}

// `answer` answers every request, a failure with a 500.
createServer((request, response) => void answer(request, response)).listen(Number(port), "127.0.0.1", () =>
  process.send?.("ready"),
);
