// Ceiling 2, the ceiling of this stack: openapi-backend on generated/openapi.yaml (configured as the
// server configures it: src/http/contract.ts) matching and validating each request, then ONE raw
// primary-key read of a project on the same storage, answered as JSON.
//   node bench/ceilings/openapi-backend.ts <port> <postgres://… | pglite data dir> <default project id>
// The project read is the path's {project_id}, or the default project for operations without one.
// The body of a JSON request is parsed and validated; a multipart body is drained unvalidated.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { PGlite } from "@electric-sql/pglite";
import type { Document } from "openapi-backend";
import pg from "pg";
import { parse } from "yaml";
import { contractPath, openApiBackend, pipelineOperations } from "../../src/http/contract.ts";

const [port, storage, defaultProjectId] = process.argv.slice(2);
const api = await openApiBackend(pipelineOperations(parse(readFileSync(contractPath, "utf8")) as Document));
const SELECT = "select * from projects where id = $1";

let read: (id: string) => Promise<unknown>;
if (storage.startsWith("postgres")) {
  const pool = new pg.Pool({ connectionString: storage, max: 10 });
  read = async (id) => (await pool.query(SELECT, [id])).rows[0];
} else {
  const db = await PGlite.create({ dataDir: storage });
  read = async (id) => (await db.query(SELECT, [id])).rows[0];
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

createServer(async (request, response) => {
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
      error.instancePath.startsWith("/requestBody") || (error.params as { missingProperty?: string }).missingProperty === "requestBody";
    const errors = (result.errors ?? []).filter((error) => json || !aboutBody(error));
    if (errors.length) return void response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify(errors[0]));
    const id = (result.coerced.params as Record<string, string> | undefined)?.project_id ?? defaultProjectId;
    const body = JSON.stringify(await read(id));
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
