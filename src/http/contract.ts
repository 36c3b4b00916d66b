// The canonical contract at run time: openapi-backend routes each request to its operation and
// validates it against generated/openapi.yaml, with formats (ajv-formats).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OpenAPIBackend, type Document, type Operation, type Request } from "openapi-backend";
import type { ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { HttpError } from "./errors.ts";

export const contractPath = join(import.meta.dirname, "..", "..", "generated", "openapi.yaml");
/** The same document as JSON (generated beside it): parsed at start in a fraction of the YAML's time. */
export const contractJsonPath = join(import.meta.dirname, "..", "..", "generated", "openapi.json");

export interface Contract {
  /** The operation a request addresses; throws 404 not_found or 405 method_not_allowed. */
  match(method: string, path: string): Operation;
  /**
   * Validates path, query, headers and (for JSON) the body; throws 400 invalid_request. Returns coerced params and query.
   * With `streamedBody` (multipart), the body is left to the handler that streams it: it is not here to check.
   */
  validate(
    request: Request,
    operation: Operation,
    options?: { streamedBody?: boolean },
  ): { params: Record<string, unknown>; query: Record<string, unknown> };
}

/** openapi-backend over a contract document: formats checked, path and query values coerced. */
export async function openApiBackend(definition: Document): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition,
    quick: true,
    validate: true,
    coerceTypes: true,
    customizeAjv: (ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });
  await api.init();
  return api;
}

/**
 * The contract's operations this pipeline serves: those without `x-served-by` (the OAuth endpoints
 * carry `x-served-by: oauth` and are served by src/oauth/, before requests reach the pipeline).
 */
export function pipelineOperations(document: Document): Document {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const kept = Object.fromEntries(
      Object.entries(item ?? {}).filter(([, operation]) => !(operation as { "x-served-by"?: string })?.["x-served-by"]),
    );
    if (Object.keys(kept).some((key) => !["parameters", "summary", "description"].includes(key))) paths[path] = kept;
  }
  return { ...document, paths };
}

const loaded = new Map<string, Promise<Contract>>();

/**
 * The contract of a document, once per process: it is only read after it is made, and each
 * operation's validators are compiled by ajv when first used, so every app of a process (the
 * tests start several) shares that work.
 */
export function loadContract(path = contractJsonPath): Promise<Contract> {
  let contract = loaded.get(path);
  if (!contract) {
    contract = makeContract(path);
    contract.catch(() => loaded.delete(path));
    loaded.set(path, contract);
  }
  return contract;
}

async function makeContract(path: string): Promise<Contract> {
  const text = readFileSync(path, "utf8");
  const api = await openApiBackend(
    pipelineOperations((path.endsWith(".json") ? JSON.parse(text) : parse(text)) as Document),
  );
  const operations = api.getOperations();
  const routes = compileRoutes(operations);

  return {
    match(method, path) {
      const candidates = routes.matching(normalizePath(path));
      const wanted = method.toLowerCase();
      const operation = candidates.find((route) => route.method === wanted);
      if (operation) return operation;
      const allowed = [
        ...new Set(operations.filter((op) => candidates.includes(op)).map((op) => op.method.toUpperCase())),
      ];
      if (allowed.length > 0) {
        throw new HttpError(
          405,
          "method_not_allowed",
          `${method} is not allowed on ${path}; use ${allowed.join(", ")}.`,
          null,
          {
            Allow: allowed.join(", "),
          },
        );
      }
      throw new HttpError(404, "not_found", `No route ${method} ${path}.`);
    },

    validate(request, operation, options = {}) {
      let result: ReturnType<typeof api.validateRequest>;
      try {
        result = api.validateRequest(request, operation);
      } catch (error) {
        // openapi-backend decodes path parameters with decodeURIComponent: `%` not followed by two
        // hex digits (or bytes that are not UTF-8) is the client's error, not ours.
        if (error instanceof URIError)
          throw new HttpError(400, "invalid_request", "The request path is not valid percent-encoded UTF-8.");
        throw error;
      }
      // openapi-backend takes a body that is not a parsed object for an absent one: a streamed
      // (multipart) body would always fail as "missing `requestBody`". Its handler checks it instead.
      const errors = (result.errors ?? []).filter((error) => !(options.streamedBody && isAboutBody(error)));
      if (errors.length) {
        const first = errors[0]!;
        throw new HttpError(400, "invalid_request", describe(first), paramOf(first));
      }
      const coerced = result.coerced as { params?: Record<string, unknown>; query?: Record<string, unknown> };
      return { params: coerced.params ?? {}, query: coerced.query ?? {} };
    },
  };
}

/**
 * The contract's routes, compiled once at start. openapi-backend's own matchOperation rebuilds its
 * operation list and a RegExp per operation on every request; the order here is the one it applies
 * (an exact path first, then templates with more literal characters first), so the contract stays
 * the single source of routes and the answers are the same.
 *
 * Routes are kept in a tree of path segments (literal segments by name, templated ones by pattern),
 * so matching a path walks its own segments: its cost does not grow with the number of operations.
 */
export function compileRoutes(operations: readonly Operation[]): { matching(path: string): Operation[] } {
  const root = new SegmentNode();
  const ranked = operations
    .map((operation, index) => ({
      operation,
      index,
      exact: !operation.path.includes("{"),
      literal: operation.path.replace(/\{.*?\}/g, "").length,
    }))
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.literal - a.literal || a.index - b.index);
  const rank = new Map(ranked.map((route, position) => [route.operation, position]));
  for (const { operation } of ranked) {
    operation.path
      .split("/")
      .reduce((node, segment) => node.child(segment), root)
      .operations.push(operation);
  }
  return {
    matching(path) {
      const found: Operation[] = [];
      root.collect(path.split("/"), 0, found);
      return found.length > 1 ? found.sort((a, b) => rank.get(a)! - rank.get(b)!) : found;
    },
  };
}

class SegmentNode {
  readonly operations: Operation[] = [];
  readonly #literals = new Map<string, SegmentNode>();
  readonly #templated: Array<{ source: string; pattern: RegExp; node: SegmentNode }> = [];

  /** The node below this one for a segment of a route's path, made on first use. */
  child(segment: string): SegmentNode {
    if (!segment.includes("{")) {
      let node = this.#literals.get(segment);
      if (!node) this.#literals.set(segment, (node = new SegmentNode()));
      return node;
    }
    // A parameter matches what openapi-backend's `[^/]+` does: one segment's worth, not empty.
    const source = `^${segment
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join("[^/]+")}$`;
    let entry = this.#templated.find((candidate) => candidate.source === source);
    if (!entry) this.#templated.push((entry = { source, pattern: new RegExp(source), node: new SegmentNode() }));
    return entry.node;
  }

  collect(segments: readonly string[], at: number, found: Operation[]): void {
    if (at === segments.length) {
      found.push(...this.operations);
      return;
    }
    const segment = segments[at]!;
    this.#literals.get(segment)?.collect(segments, at + 1, found);
    for (const { pattern, node } of this.#templated) if (pattern.test(segment)) node.collect(segments, at + 1, found);
  }
}

/** As openapi-backend normalises a request path: trimmed, with a leading slash and no trailing ones. */
function normalizePath(path: string): string {
  let normalized = path.trim().split("?")[0]!;
  if (!normalized.startsWith("/")) normalized = `/${normalized}`;
  while (normalized.length > 1 && normalized.endsWith("/")) normalized = normalized.slice(0, -1);
  return normalized;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function isAboutBody(error: ErrorObject): boolean {
  return (
    error.instancePath.startsWith("/requestBody") ||
    (error.params as { missingProperty?: string }).missingProperty === "requestBody"
  );
}

/** The field an ajv error is about, as the contract names it: `prompt`, `limit`, `Idempotency-Key`, `enabled_events.0`. */
function paramOf(error: ErrorObject): string | null {
  const segments = error.instancePath.split("/").filter(Boolean).slice(1);
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (missing) segments.push(missing);
  const additional = (error.params as { additionalProperty?: string }).additionalProperty;
  if (additional) segments.push(additional);
  if (segments.length === 0) return null;
  const [location] = error.instancePath.split("/").filter(Boolean);
  if (location === "header") return headerName(segments[0]!);
  return segments.join(".");
}

function headerName(lowercase: string): string {
  return lowercase.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function describe(error: ErrorObject): string {
  const param = paramOf(error);
  if (error.keyword === "parse") return `The request body is not valid JSON: ${error.message}`;
  if (error.keyword === "additionalProperties") return `Unknown field \`${param}\`; the contract does not name it.`;
  if (error.keyword === "required" && error.instancePath === "/requestBody")
    return `The body is missing the required field \`${param}\`.`;
  if (error.keyword === "required" && !param?.includes(".")) return `The request is missing \`${param}\`.`;
  if (error.keyword === "required") return `\`${param}\` is required.`;
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value));
    return `${param ? `\`${param}\`` : "The value"} must be one of ${allowed.join(", ")}.`;
  }
  return param ? `\`${param}\` ${error.message}.` : `The request ${error.message}.`;
}
