// A client for the server under test that checks every response against the contract: the status
// must be one the operation declares, the body must match its schema, the headers theirs. A
// response that breaks the contract fails the test that received it.
import { expect } from "vitest";
import { SetMatchType } from "openapi-backend";
import { contract } from "./contract.ts";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The raw bytes, for binary bodies. */
  bytes: Uint8Array;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send this raw body instead of JSON (a FormData for multipart, bytes, a string). */
  raw?: RequestInit["body"];
}

export function createApiClient(baseUrl: string, defaultKey?: string) {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
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
    const parsed = isJson ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
    await expectConforms(method, path, response, parsed);
    return { status: response.status, headers: response.headers, body: parsed as T, bytes };
  }

  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>("GET", path, options),
    post: <T = any>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>("POST", path, { ...options, body }),
    patch: <T = any>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>("PATCH", path, { ...options, body }),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** An error in the contract's shape: this status, code and param, a message, and the response's own request id. */
export function expectApiError(
  response: Pick<ApiResponse, "status" | "headers" | "body">,
  status: number,
  code: string,
  param: string | null = null,
  message: unknown = expect.any(String),
): void {
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
