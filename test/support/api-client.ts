// A client for the server under test that checks every response against the contract: the status
// must be one the operation declares, the body must match its schema, the headers theirs. A
// response that breaks the contract fails the test that received it.
//
// Typed from the contract too: a literal path finds its operation among the contract's paths
// (`{param}` matching any text, a query string aside, the most specific template winning), the
// JSON body is the operation's request body, and the response is the union of its declared answers,
// narrowed by status: `expectStatus(response, 201)` or `expectApiError(response, 404, …)` in place,
// `expectBody(response, 200)` as an expression. A path only known at run time (a `string`) may get
// any answer of the API (`AnyResponse`), narrowed alike. `invalidBody(…)` marks a body sent on purpose
// against the contract's types.
import { expect } from "vitest";
import { SetMatchType } from "openapi-backend";
import type { components, paths } from "../../generated/schema.d.ts";
import { contract } from "./contract.ts";

export type Schemas = components["schemas"];
type ErrorBody = Schemas["Error"];
type ErrorCode = Schemas["ErrorCode"];

/** A response as received, whatever the operation. */
export interface ApiResponse<Status extends number = number, Body = unknown> {
  status: Status;
  headers: Headers;
  /** The parsed JSON body; undefined when the response is not JSON. */
  body: Body;
  /** The raw bytes, for binary bodies. */
  bytes: Uint8Array;
}

type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE" | "PUT" | "HEAD" | "OPTIONS";
type Template = keyof paths;
/** The paths a template stands for: each `{param}` any text. */
type Pattern<T extends string> = T extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${Pattern<Tail>}`
  : T;
type WithoutQuery<P extends string> = P extends `${infer Base}?${string}` ? Base : P;
type Candidates<M extends string, P extends string> = {
  [T in Template]: paths[T] extends Record<Lowercase<M>, object>
    ? WithoutQuery<P> extends Pattern<T>
      ? T
      : never
    : never;
}[Template];
/** The templates among `Others` that `T` is not narrower than. */
type Wider<T extends string, Others extends string> = Others extends unknown
  ? Pattern<T> extends Pattern<Others>
    ? never
    : Others
  : never;
/** The one template narrower than every other match (`/v1/events/stream` over `/v1/events/{event_id}`). */
type MostSpecific<T extends string, All extends string = T> = T extends unknown
  ? [Wider<T, Exclude<All, T>>] extends [never]
    ? T
    : never
  : never;
type OperationAt<M extends string, P extends string> = paths[MostSpecific<Candidates<M, P>>][Lowercase<M> &
  keyof paths[Template]];

type JsonContent<C> = C extends { content: { "application/json": infer B } } ? B : undefined;
type Answers<Operation> = Operation extends { responses: infer R }
  ? { [S in keyof R & number]: ApiResponse<S, JsonContent<R[S]>> }[keyof R & number]
  : never;
/** What the server answers a method and path no operation has. */
type Unrouted = ApiResponse<404, ErrorBody> | ApiResponse<405, ErrorBody> | ApiResponse<429, ErrorBody>;
/** Any answer of the API: what a method and path that match no operation at compile time may get. */
export type AnyResponse =
  | Answers<Exclude<{ [T in Template]: paths[T][Lowercase<HttpMethod> & keyof paths[T]] }[Template], undefined>>
  | Unrouted;

/** The answers the contract declares for `method path`, one per status (for each path of a union). */
export type ResponseTo<M extends string, P extends string> = P extends unknown
  ? [Candidates<M, P>] extends [never]
    ? AnyResponse
    : Answers<OperationAt<M, P>>
  : never;

declare const invalid: unique symbol;
/** A body the contract's types refuse, sent on purpose (see `invalidBody`). */
export type InvalidBody = { readonly [invalid]: true };
/** Marks a request body as one the contract refuses, for tests of what the server answers to it. */
export const invalidBody = (body: unknown): InvalidBody => body as InvalidBody;

type JsonRequest<Operation> = Operation extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? never
    : JsonContent<NonNullable<B>> extends infer J
      ? [J] extends [undefined]
        ? never
        : J
      : never
  : never;
/** The JSON body `method path` takes (never when it takes none, or not as JSON), or one marked invalid. */
export type RequestBody<M extends string, P extends string> = P extends unknown
  ? [Candidates<M, P>] extends [never]
    ? unknown
    : JsonRequest<OperationAt<M, P>> | InvalidBody
  : never;

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** Send this raw body instead of JSON (a FormData for multipart, bytes, a string). */
  raw?: RequestInit["body"];
}

export function createApiClient(baseUrl: string, defaultKey?: string) {
  async function request<M extends HttpMethod | (string & {}), P extends string>(
    method: M,
    path: P,
    options: RequestOptions & { body?: RequestBody<M, P> } = {},
  ): Promise<ResponseTo<M, P>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? defaultKey : options.key;
    if (key) headers.Authorization ??= `Bearer ${key}`;
    let body: RequestInit["body"] = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const isJson = response.headers.get("content-type")?.startsWith("application/json");
    const parsed: unknown = isJson ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
    await expectConforms(method, path, response, parsed);
    return { status: response.status, headers: response.headers, body: parsed, bytes } as ResponseTo<M, P>;
  }

  return {
    request,
    get: <P extends string>(path: P, options?: RequestOptions) => request("GET", path, options),
    post: <P extends string>(path: P, body?: RequestBody<"POST", P>, options?: RequestOptions) =>
      request("POST", path, { ...options, body }),
    patch: <P extends string>(path: P, body?: RequestBody<"PATCH", P>, options?: RequestOptions) =>
      request("PATCH", path, { ...options, body }),
    delete: <P extends string>(path: P, options?: RequestOptions) => request("DELETE", path, options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** What the status narrows: a response of this client, or one read without it (see `StatusAndBodyTo`). */
type StatusAndBody = Pick<ApiResponse, "status" | "body">;

/** The status and body of an answer to `method path`, for a response read without this client (node:http). */
export type StatusAndBodyTo<M extends string, P extends string> =
  ResponseTo<M, P> extends infer R ? (R extends ApiResponse ? Pick<R, "status" | "body"> : never) : never;

/** `response` narrowed to its answers at `status`. */
type At<R extends StatusAndBody, S extends number> = R extends unknown
  ? S extends R["status"]
    ? R & { status: S }
    : never
  : never;

/** The body of `R`'s answers at status `S`. */
export type BodyAt<R extends StatusAndBody, S extends number> = At<R, S>["body"];

/** Fails the test unless `response` has this status; from then on its body is that status's. */
export function expectStatus<R extends StatusAndBody, S extends R["status"]>(
  response: R,
  status: S,
  message?: string,
): asserts response is At<R, S> {
  expect(response.status, message ?? `body: ${JSON.stringify(response.body)}`).toBe(status);
}

/** The body of `response`, which must have this status. */
export function expectBody<R extends StatusAndBody, S extends R["status"]>(response: R, status: S): BodyAt<R, S> {
  expectStatus(response, status);
  return response.body;
}

/** An error in the contract's shape: this status, code and param, a message, and the response's own request id. */
export function expectApiError<R extends Omit<ApiResponse, "bytes">, S extends R["status"]>(
  response: R,
  status: S,
  code: ErrorCode,
  param: string | null = null,
  message: unknown = expect.any(String),
): asserts response is At<R, S> & { body: ErrorBody } {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.body).toEqual({ error: { code, message, param, request_id: response.headers.get("x-request-id") } });
}

async function expectConforms(method: string, path: string, response: Response, body: unknown): Promise<void> {
  const api = await contract();
  const url = new URL(path, "http://localhost");
  const where = `${method} ${path} → ${response.status}`;
  expect(response.headers.get("x-request-id"), `${where}: X-Request-Id`).toMatch(/^req_[0-9A-Za-z]{8,64}$/);
  const operation = api.matchOperation({ method: method.toLowerCase(), path: url.pathname, headers: {} });
  if (!operation) {
    // Unknown routes and wrong methods answer outside any operation, still in the error shape
    // (429 once the client's address has failed too often).
    expect([404, 405, 429], where).toContain(response.status);
    expect(api.validator.validateResponse(body, "getProject", 404).errors ?? [], `${where}: error body`).toEqual([]);
    return;
  }
  const declared = Object.keys(operation.responses ?? {});
  expect(declared, `${where}: status declared by ${operation.operationId}`).toContain(String(response.status));
  if (body !== undefined) {
    const result = api.validator.validateResponse(body, operation, response.status);
    expect(result.errors ?? [], `${where}: body of ${operation.operationId}`).toEqual([]);
  }
  // openapi-backend checks the values of the headers present (Any) but not `required` (its
  // Superset mode demands every declared header), so presence is checked here.
  const headers = Object.fromEntries(response.headers.entries());
  const headerResult = api.validator.validateResponseHeaders(headers, operation, {
    statusCode: response.status,
    setMatchType: SetMatchType.Any,
  });
  expect(headerResult.errors ?? [], `${where}: headers of ${operation.operationId}`).toEqual([]);
  const declaredHeaders =
    (operation.responses?.[String(response.status)] as { headers?: Record<string, { required?: boolean }> })?.headers ??
    {};
  const missing = Object.entries(declaredHeaders)
    .filter(([name, header]) => header.required && !response.headers.has(name))
    .map(([name]) => name);
  expect(missing, `${where}: required headers of ${operation.operationId}`).toEqual([]);
}
