// @project-builder/client: the Project Builder API client library, typed from the contract: every
// path, parameter, body and answer comes from @project-builder/contract (openapi-typescript's types
// of the OpenAPI document), the calls from openapi-fetch. Web standards only (fetch, Web Crypto), so
// it runs unchanged in Node 22+, Deno, Bun, browsers and edge runtimes.
//
//   const client = createClient({ apiKey: "svc_live_…", baseUrl: "https://api.project-builder.example" });
//   const project = await client.POST("/v1/projects", { body: { name: "Recipes", prompt: "…" } });
//   for await (const p of client.paginate("/v1/projects", { params: { query: { limit: 50 } } })) …
//   for await (const event of client.events.stream({ types: ["agent_run.succeeded"] })) …   (event-stream.ts)
//
// What it adds to openapi-fetch, in one transport under every call:
// - Idempotency: the creating POSTs (the operations whose document declares an `Idempotency-Key`
//   header; `idempotentRoutes`, generated from it at build time) get a random
//   UUID key unless the caller gave one. The key is set once per call, so the client's own retries
//   of that call carry the same key and the server replays instead of creating twice.
// - Retries, at most `maxRetries` (default 3) after the first attempt:
//     429: waits `Retry-After` seconds (at most `maxRetryAfterSeconds`, default 60), any request
//          (a refused request was not carried out);
//     network errors, timeouts, 500/502/503/504, and 409 `idempotency_key_in_use`: jittered
//          exponential backoff (at least `Retry-After` when the answer has one), only for requests
//          safe to repeat: GET, HEAD, OPTIONS, PUT, DELETE, and POSTs carrying an Idempotency-Key.
// - Errors: `GET`/`POST`/`PATCH`/`DELETE` resolve with the success body and throw `ApiError` for any
//   non-2xx answer (after retries), `ApiConnectionError` when no answer came (network failure or
//   timeout, after retries). `client.raw` is the same openapi-fetch client in its own style
//   (`{ data, error, response }`, for headers such as `Location` or `RateLimit`), over the same
//   transport: it retries and adds keys alike, and throws `ApiConnectionError` alike.
import createOpenApiClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from "openapi-fetch";
import type { components, operations, paths } from "@project-builder/contract";
import { ApiConnectionError, ApiError, isErrorBody } from "./errors.ts";
import {
  openEventStream,
  type EventOfType,
  type EventStream,
  type EventStreamOptions,
  type StreamEventType,
} from "./event-stream.ts";
import { idempotentRoutes } from "./idempotent-routes.ts";
import { backoffDelay, parseRetryAfter, sleep } from "./timing.ts";

export type { components, operations, paths };
export { ApiConnectionError, ApiError, idempotentRoutes };
export {
  EventStreamError,
  type EventOfType,
  type EventStream,
  type EventStreamOptions,
  type StreamEvent,
  type StreamEventType,
} from "./event-stream.ts";
export {
  verifyFetchRequest,
  verifyWebhook,
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookVerificationError,
  type VerifyRequestOptions,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from "./webhooks.ts";

export type Schemas = components["schemas"];
export type ErrorCode = Schemas["ErrorCode"];
export type ErrorBody = Schemas["Error"];

// ---------------------------------------------------------------------------------------------
// Types: openapi-fetch's, with the success body as the result

type MediaType = `${string}/${string}`;
type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** The openapi-fetch client over the contract's paths, answering `{ data, error, response }`. */
export type RawClient = Client<paths, MediaType>;

/** The contract's paths that have an operation for `method`. */
export type PathsWith<M extends HttpMethod> = ClientPathsWithMethod<RawClient, M>;

// As openapi-fetch declares them (not exported there): the init argument is optional exactly when
// the operation has no required path parameter, query parameter or body.
type RequiredKeysOf<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

type SuccessOf<Operation, Init> =
  Operation extends Record<string | number, unknown>
    ? FetchResponse<Operation, Init, MediaType> extends infer R
      ? R extends { data: infer D }
        ? D
        : never
      : never
    : never;

/** The body a successful call of `method path` resolves with (`undefined` for a 204). */
export type ResponseData<M extends HttpMethod, P extends PathsWith<M>, Init = Record<never, never>> = [
  SuccessOf<paths[P][M], Init>,
] extends [never]
  ? undefined
  : SuccessOf<paths[P][M], Init>;

/** A call: the same arguments as openapi-fetch's, resolving with the success body, throwing `ApiError`. */
export type CallMethod<M extends HttpMethod> = <P extends PathsWith<M>, Init extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<Init>
) => Promise<ResponseData<M, P, Init>>;

/** The GET paths that answer a page: `{ data: [...], next_cursor }`. */
export type ListPath = {
  [P in PathsWith<"get">]: ResponseData<"get", P> extends { data: readonly unknown[]; next_cursor: string | null }
    ? P
    : never;
}[PathsWith<"get">];

/** The item type of a list path's pages. */
export type ListItem<P extends ListPath> = ResponseData<"get", P> extends { data: readonly (infer T)[] } ? T : never;

export interface ProjectBuilderClient {
  GET: CallMethod<"get">;
  POST: CallMethod<"post">;
  PATCH: CallMethod<"patch">;
  DELETE: CallMethod<"delete">;
  /**
   * Every item of a list, page after page, following `next_cursor` until it is null. The query's
   * `limit` is the page size; a `cursor` in it is where to start. Each page is one GET, retried
   * like any other; an error on a page is thrown from the iteration.
   */
  paginate<P extends ListPath, Init extends MaybeOptionalInit<paths[P], "get">>(
    url: P,
    ...init: InitParam<Init>
  ): AsyncGenerator<ListItem<P>, void, undefined>;
  /** The underlying openapi-fetch client (`{ data, error, response }`), with the same transport. */
  readonly raw: RawClient;
  readonly events: {
    /**
     * The workspace's events live (`GET /v1/events/stream`), as an async iterator of typed events
     * (narrowed to `types` when given) that reconnects with `Last-Event-ID` until it is ended (its
     * `signal`, `break`, `close()`). Nothing is sent before the first `next()`. See `EventStreamOptions`.
     *
     *   for await (const event of client.events.stream({ project_id, types: ["agent_run.succeeded"], signal })) …
     */
    stream<T extends StreamEventType = StreamEventType>(options?: EventStreamOptions<T>): EventStream<EventOfType<T>>;
  };
}

export interface ClientOptions {
  /** `svc_live_…` or `svc_test_…`, sent as `Authorization: Bearer …`. */
  apiKey: string;
  /** E.g. `https://api.project-builder.example` (the document's `servers`). */
  baseUrl: string;
  /** The transport (default: the global fetch). Retries, keys and timeouts wrap it. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /** Time limit of each attempt, in milliseconds (default: none); a timed-out attempt counts as a network error. */
  timeoutMs?: number;
  /** The longest `Retry-After` the client waits (default 60 s); longer ones are waited this long. */
  maxRetryAfterSeconds?: number;
  /** Exponential backoff: first delay and ceiling in milliseconds (default 500 and 8000), each jittered to 50–100 %. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Headers added to every request (e.g. a `User-Agent` of your application). */
  headers?: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// The transport: idempotency keys, retries, timeouts

const IDEMPOTENCY_KEY = "Idempotency-Key";

const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (idempotentRoutes.has(`${request.method} ${schemaPath}`) && !request.headers.has(IDEMPOTENCY_KEY)) {
      request.headers.set(IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
    }
  },
};

const SAFE_TO_REPEAT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

interface TransportOptions {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  timeoutMs: number | undefined;
  maxRetryAfterMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

function retryingFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  const backoff = (retry: number) => backoffDelay(retry, options.initialBackoffMs, options.maxBackoffMs);

  /** How long to wait before retrying this answer, or undefined to return it. */
  async function delayFor(response: Response, retry: number, repeatable: boolean): Promise<number | undefined> {
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    const askedMs = retryAfter === null ? undefined : Math.min(retryAfter * 1000, options.maxRetryAfterMs);
    if (response.status === 429) return askedMs ?? backoff(retry);
    if (!repeatable) return undefined;
    if (RETRIED_STATUSES.has(response.status)) return Math.max(askedMs ?? 0, backoff(retry));
    if (response.status === 409) {
      // The same key's first request is still running: wait for it to finish, then get its replay.
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (isErrorBody(body) && body.error.code === "idempotency_key_in_use") return backoff(retry);
    }
    return undefined;
  }

  return async (request) => {
    const repeatable =
      SAFE_TO_REPEAT.has(request.method) || (request.method === "POST" && request.headers.has(IDEMPOTENCY_KEY));
    for (let attempt = 1; ; attempt++) {
      const retry = attempt - 1;
      const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
      // A copy per attempt: a body can be sent once; the original stays unread for the next copy.
      const sent = new Request(request.clone(), {
        signal: timeout ? AbortSignal.any([request.signal, timeout]) : request.signal,
      });
      let response: Response;
      try {
        response = await options.fetch(sent);
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        if (!repeatable || retry >= options.maxRetries)
          throw new ApiConnectionError(request, attempt, error, timeout?.aborted ?? false);
        await sleep(backoff(retry), request.signal);
        continue;
      }
      if (retry >= options.maxRetries || response.ok) return response;
      const delay = await delayFor(response, retry, repeatable);
      if (delay === undefined) return response;
      await response.body?.cancel().catch(() => {});
      await sleep(delay, request.signal);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// The client

/** The init of any call, as the implementation sees it: the types above check it at the call. */
type LooseInit = { params?: { query?: Record<string, unknown> } } & Record<string, unknown>;
type LooseCall = (url: string, init?: LooseInit) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export function createClient(options: ClientOptions): ProjectBuilderClient {
  if (!options.apiKey) throw new TypeError("createClient needs an apiKey.");
  if (!options.baseUrl) throw new TypeError("createClient needs a baseUrl.");
  const maxRetries = options.maxRetries ?? 3;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError("maxRetries is a whole number, 0 or more.");
  const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createOpenApiClient<paths, MediaType>({
    baseUrl: options.baseUrl,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch({
      fetch: transport,
      maxRetries,
      timeoutMs: options.timeoutMs,
      maxRetryAfterMs: (options.maxRetryAfterSeconds ?? 60) * 1000,
      initialBackoffMs: options.backoff?.initialMs ?? 500,
      maxBackoffMs: options.backoff?.maxMs ?? 8000,
    }),
  });
  raw.use(idempotencyKeys);
  const streamConfig = {
    baseUrl: options.baseUrl,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    fetch: transport,
    maxRetryAfterMs: (options.maxRetryAfterSeconds ?? 60) * 1000,
    initialBackoffMs: options.backoff?.initialMs ?? 500,
    maxBackoffMs: options.backoff?.maxMs ?? 8000,
  };

  const loose = raw as unknown as Record<"GET" | "POST" | "PATCH" | "DELETE", LooseCall>;
  const call =
    (method: "GET" | "POST" | "PATCH" | "DELETE") =>
    async (url: string, init?: LooseInit): Promise<unknown> => {
      const { data, error, response } = await loose[method](url, init);
      if (!response.ok) throw new ApiError(response, error);
      return data;
    };
  const get = call("GET");

  async function* paginate(url: string, init?: LooseInit): AsyncGenerator<unknown, void, undefined> {
    let cursor: unknown = init?.params?.query?.cursor;
    for (;;) {
      const query = { ...init?.params?.query };
      if (cursor === undefined || cursor === null) delete query.cursor;
      else query.cursor = cursor;
      const page = (await get(url, { ...init, params: { ...init?.params, query } })) as {
        data: unknown[];
        next_cursor: string | null;
      };
      yield* page.data;
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  return {
    GET: get as CallMethod<"get">,
    POST: call("POST") as CallMethod<"post">,
    PATCH: call("PATCH") as CallMethod<"patch">,
    DELETE: call("DELETE") as CallMethod<"delete">,
    paginate: paginate as ProjectBuilderClient["paginate"],
    raw,
    events: {
      stream: (streamOptions) => openEventStream(streamConfig, streamOptions),
    },
  };
}

/**
 * A `bodySerializer` for the multipart operations (`uploadFile`): each field of the body as a form
 * field, text fields first; a Blob (or File) or bytes as a file part, and a string in `file` (the
 * contract's binary field) as the file's content.
 *
 *   await client.POST("/v1/projects/{project_id}/files", {
 *     params: { path: { project_id } },
 *     body: { path: "index.html", file: "<h1>Hi</h1>" },
 *     bodySerializer: multipartBody,
 *   });
 */
export function multipartBody(body: unknown): FormData {
  const form = new FormData();
  const files: [string, Blob, string][] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) files.push([name, value, value instanceof File ? value.name : name]);
    else if (value instanceof Uint8Array) files.push([name, new Blob([new Uint8Array(value)]), name]);
    else if (name === "file" && typeof value === "string") files.push([name, new Blob([value]), name]);
    else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  for (const [name, blob, filename] of files) form.append(name, blob, filename);
  return form;
}
