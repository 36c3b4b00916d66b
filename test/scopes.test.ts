// The scope matrix, over every operation the contract declares, on the embedded database: a key with
// exactly the operation's `x-required-scopes` gets past authorization, a key with every other scope
// gets 401 insufficient_scope, `*` passes; the calling-key operation needs no scope at all.
import type { Operation } from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopes as allScopes } from "../src/domain/keys.ts";
import { expectApiError, expectBody, expectStatus, type ApiClient, type ApiResponse } from "./support/api-client.ts";
import { exampleBody, operations, samplePath } from "./support/contract.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const namedScopes = allScopes.filter((scope) => scope !== "*");
// The /v1 operations: the OAuth endpoints (x-served-by: oauth) take no API key and no scope.
const ops = (await operations()).filter(
  (operation) => !(operation as unknown as Record<string, unknown>)["x-served-by"],
);

function requiredScopes(operation: Operation): string[] {
  return ((operation as unknown as Record<string, unknown>)["x-required-scopes"] as string[] | undefined) ?? [];
}

/** Sends `operation` with sample path ids and, when it takes a body, one the contract accepts. */
function send(client: ApiClient, operation: Operation): Promise<ApiResponse> {
  return client.request(operation.method.toUpperCase(), samplePath(operation.path), exampleBody(operation));
}

describe("the contract's scopes", () => {
  it("every operation declares its scopes, at most one, among the description's; OAuth2 security agrees", () => {
    expect(ops.length).toBeGreaterThan(25);
    for (const operation of ops) {
      const required = requiredScopes(operation);
      expect(Array.isArray(required), operation.operationId).toBe(true);
      for (const scope of required) expect(namedScopes, operation.operationId).toContain(scope);
      const oauth = (operation.security ?? []).flatMap(
        (requirement) => (requirement as Record<string, string[]>).OAuth2 ?? [],
      );
      expect(oauth.sort(), `${operation.operationId}: OAuth2 scopes`).toEqual([...required].sort());
    }
    // Only the calling-key operation needs no scope, and the event stream, which checks each event
    // type's scope itself (a key that can read none is refused insufficient_scope: event-stream.test.ts).
    expect(
      ops
        .filter((operation) => requiredScopes(operation).length === 0)
        .map((operation) => operation.operationId)
        .sort(),
    ).toEqual(["getCurrentApiKey", "streamEvents"]);
  });
});

onEmbeddedDatabase("scope matrix", (driver) => {
  let server: TestServer;
  /** One client per scope set, made once. */
  const clients = new Map<string, ApiClient>();
  async function withScopes(scopes: string[]): Promise<ApiClient> {
    const name = [...scopes].sort().join(",");
    if (!clients.has(name)) clients.set(name, server.as(await server.createKey({ workspace: "scopes", scopes })));
    return clients.get(name)!;
  }

  beforeAll(async () => {
    server = await startTestServer(driver);
    clients.clear();
  });
  afterAll(() => server?.stop());

  for (const operation of ops) {
    const required = requiredScopes(operation);
    if (required.length === 0) continue;
    it(`${operation.operationId} (${operation.method.toUpperCase()} ${operation.path}) needs ${required.join(", ")}`, async () => {
      const exact = await send(await withScopes(required), operation);
      // Past authorization, and the contract's own example is a valid request: what is left is the sample ids' 404.
      expect(
        [401, 400],
        `${operation.operationId} with exactly ${required.join(", ")}: ${JSON.stringify(exact.body)}`,
      ).not.toContain(exact.status);
      expect(exact.status).toBeLessThan(500);

      const others = namedScopes.filter((scope) => !required.includes(scope));
      const lacking = await send(await withScopes(others), operation);
      expectApiError(lacking, 401, "insufficient_scope", null, expect.stringContaining(required[0]!));

      const star = await send(await withScopes(["*"]), operation);
      expect([401, 400], `${operation.operationId} with *: ${JSON.stringify(star.body)}`).not.toContain(star.status);
      expect(star.status).toBeLessThan(500);
    });
  }

  it("a key lacking the scope is refused before its body is looked at", async () => {
    const readOnly = await withScopes(["projects:read"]);
    const noBody = await readOnly.post("/v1/projects", undefined);
    expectStatus(noBody, 401);
    expect(noBody.body.error.code).toBe("insufficient_scope");
    const wrongType = await readOnly.request("POST", "/v1/projects", {
      raw: "x",
      headers: { "Content-Type": "text/plain" },
    });
    expect(expectBody(wrongType, 401).error.code).toBe("insufficient_scope");
  });

  it("a refused scope creates nothing", async () => {
    const writer = await withScopes(["projects:read", "projects:write"]);
    const before = expectBody(await writer.get("/v1/projects?limit=100"), 200).data.length;
    const refused = await (await withScopes(["projects:read"])).post("/v1/projects", { name: "x", prompt: "y" });
    expect(refused.status).toBe(401);
    expect(expectBody(await writer.get("/v1/projects?limit=100"), 200).data.length).toBe(before);
  });

  it("getCurrentApiKey answers any valid key, whatever its scopes", async () => {
    for (const scopes of [...namedScopes.map((scope) => [scope]), ["*"], ["files:read", "billing:read"]]) {
      const response = await (await withScopes(scopes)).get("/v1/key");
      expectStatus(response, 200, scopes.join(","));
      expect([...response.body.scopes].sort()).toEqual([...scopes].sort());
      expect(response.body.workspace.slug).toBe("scopes");
    }
  });
});
