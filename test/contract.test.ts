// Invariants of the contract, read from the generated document: what every operation must declare,
// so that a spec change that forgets one fails here (and in Spectral) before any client sees it.
import { describe, expect, it } from "vitest";
import type { Operation } from "openapi-backend";
import { operationMeta } from "../generated/handlers.ts";
import { document, operations, responseErrors } from "./support/contract.ts";

// The parts of the document read here, as the document writes them.
type Schema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  required?: string[];
  enum?: string[];
  default?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Content = Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }>;
type Response = { content?: Content; headers?: Record<string, { required?: boolean }> };
type Parameter = { name: string; in: string; schema?: Schema; explode?: boolean };
type SecurityScheme = {
  type: string;
  flows?: { authorizationCode: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> } };
};

const allOps = await operations();
// The OAuth 2.0 authorization server's operations (spec/oauth.tsp), marked `x-served-by: oauth`: on
// the API's origin but outside the /v1 pipeline, so without API keys, scopes, rate-limit headers or
// the API's error shape. They are named here, and checked by their own tests below; every other
// operation keeps every invariant.
const oauthOperationIds = ["getAuthorizationServerMetadata", "authorize", "requestToken", "revokeToken"];
const servedBy = (op: Operation) => (op as Record<string, unknown>)["x-served-by"];
const oauthOps = allOps.filter((op) => oauthOperationIds.includes(op.operationId!));
/** The /v1 API's operations: everything but the named OAuth ones. */
const ops = allOps.filter((op) => !oauthOperationIds.includes(op.operationId!));
const rawResponses = (op: Operation) =>
  (document.paths as Record<string, Record<string, { responses: Record<string, Response> }>>)[op.path]![op.method]!
    .responses;
const securitySchemes = document.components?.securitySchemes as Record<string, SecurityScheme>;
const oauthScopes = Object.keys(securitySchemes.OAuth2!.flows!.authorizationCode.scopes);
const schemas = document.components?.schemas as Record<string, Schema>;
const jsonBody = (op: Operation) => (op.requestBody as { content: Content }).content["application/json"]?.schema;

describe("the contract", () => {
  it("has the operation groups the description names, each /v1 operation once in the server stubs", () => {
    const ids = ops.map((op) => op.operationId).sort();
    expect(ids).toEqual(Object.keys(operationMeta).sort());
    // Exactly the OAuth operations are served elsewhere, and have no stub.
    expect(oauthOps.map((op) => op.operationId).sort()).toEqual([...oauthOperationIds].sort());
    expect(
      allOps
        .filter((op) => servedBy(op) !== undefined)
        .map((op) => op.operationId)
        .sort(),
    ).toEqual([...oauthOperationIds].sort());
    for (const op of oauthOps) expect(servedBy(op), op.operationId).toBe("oauth");
    for (const id of [
      "createProject",
      "listProjects",
      "getProject",
      "updateProject",
      "deleteProject",
      "triggerAgentRun",
      "listAgentRuns",
      "getAgentRun",
      "cancelAgentRun",
      "createDeployment",
      "listDeployments",
      "getDeployment",
      "rollbackDeployment",
      "uploadFile",
      "listFiles",
      "getFile",
      "downloadFile",
      "deleteFile",
      "getUsage",
      "listInvoices",
      "createWebhookEndpoint",
      "listWebhookEndpoints",
      "getWebhookEndpoint",
      "updateWebhookEndpoint",
      "deleteWebhookEndpoint",
      "sendTestWebhookEvent",
      "listWebhookDeliveries",
      "redeliverWebhookDelivery",
      "getCurrentApiKey",
    ]) {
      expect(ids).toContain(id);
    }
  });

  it("declares production and staging servers and a /v1 path on every operation", () => {
    expect(document.servers?.map((s) => s.description)).toEqual([
      expect.stringMatching(/^Production/),
      expect.stringMatching(/^Staging/),
    ]);
    for (const op of ops) expect(op.path).toMatch(/^\/v1\//);
  });

  it("serves the OAuth endpoints on the API's origin, outside /v1, with the security they take", () => {
    const byId = Object.fromEntries(oauthOps.map((op) => [op.operationId!, op]));
    expect(Object.fromEntries(oauthOps.map((op) => [op.operationId, `${op.method.toUpperCase()} ${op.path}`]))).toEqual(
      {
        getAuthorizationServerMetadata: "GET /.well-known/oauth-authorization-server",
        authorize: "GET /oauth/authorize",
        requestToken: "POST /oauth/token",
        revokeToken: "POST /oauth/revoke",
      },
    );
    // No API key: public (metadata), the browser's session (authorize), or client credentials.
    expect(byId.getAuthorizationServerMetadata?.security).toEqual([{}]);
    expect(byId.authorize?.security).toEqual([{}]);
    expect(byId.requestToken?.security).toEqual([{}, { BasicAuth: [] }]);
    expect(byId.revokeToken?.security).toEqual([{}, { BasicAuth: [] }]);
    expect(securitySchemes.BasicAuth).toMatchObject({ type: "http", scheme: "Basic" });
    for (const op of oauthOps) {
      expect(op.tags).toEqual(["OAuth"]);
      expect(op.summary).toBeTruthy();
      expect((op as Record<string, unknown>)["x-required-scopes"]).toBeUndefined();
    }
    expect((document.tags ?? []).map((tag) => tag.name)).toContain("OAuth");

    // The OAuth2 scheme's flow points at them, on the production server's origin.
    const production = document.servers![0]!.url;
    expect(securitySchemes.OAuth2!.flows!.authorizationCode).toMatchObject({
      authorizationUrl: `${production}/oauth/authorize`,
      tokenUrl: `${production}/oauth/token`,
      refreshUrl: `${production}/oauth/token`,
    });
  });

  it("answers OAuth errors as RFC 6749 says: OAuthError from the token and revocation endpoints, HTML pages from authorize", () => {
    expect(schemas.OAuthError?.required).toEqual(["error"]);
    expect(schemas.OAuthErrorCode?.enum?.sort()).toEqual(
      [
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
      ].sort(),
    );
    for (const id of ["requestToken", "revokeToken"]) {
      const op = oauthOps.find((o) => o.operationId === id)!;
      const responses = rawResponses(op);
      expect(Object.keys(responses).sort(), id).toEqual(["200", "400", "401", "500"]);
      for (const status of ["400", "401"]) {
        expect(responses[status]?.content, `${id} ${status}`).toEqual({
          "application/json": expect.objectContaining({ schema: { $ref: "#/components/schemas/OAuthError" } }),
        });
      }
      expect(responses["401"]?.headers?.["WWW-Authenticate"]?.required).toBe(true);
      // Both encodings of the body, one model.
      const body = (op.requestBody as { content: Content }).content;
      expect(Object.keys(body).sort()).toEqual(["application/json", "application/x-www-form-urlencoded"]);
      expect(body["application/x-www-form-urlencoded"]?.schema).toEqual(body["application/json"]?.schema);
    }
    const token = rawResponses(oauthOps.find((o) => o.operationId === "requestToken")!)["200"]!;
    expect(token.headers?.["Cache-Control"]?.required).toBe(true);
    expect(token.headers?.["Pragma"]?.required).toBe(true);
    expect(token.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/OAuthTokenResponse" });
    expect(rawResponses(oauthOps.find((o) => o.operationId === "revokeToken")!)["200"]!.content).toBeUndefined();

    const authorize = rawResponses(oauthOps.find((o) => o.operationId === "authorize")!);
    expect(Object.keys(authorize).sort()).toEqual(["200", "302", "400", "500"]);
    expect(authorize["302"]?.headers?.Location?.required).toBe(true);
    expect(Object.keys(authorize["200"]?.content ?? {})).toEqual(["text/html"]);
    expect(Object.keys(authorize["400"]?.content ?? {})).toEqual(["text/html"]);

    // A fault is plain text (the server's page-failure answer), at every OAuth endpoint.
    for (const op of oauthOps)
      expect(Object.keys(rawResponses(op)["500"]?.content ?? {}), op.operationId).toEqual(["text/plain"]);
  });

  it.each(ops.map((op) => [op.operationId!, op] as const))(
    "%s is secured by bearer key or OAuth2 with its declared scopes",
    (_, op) => {
      const required = (op as Record<string, unknown>)["x-required-scopes"] as string[];
      expect(Array.isArray(required)).toBe(true);
      for (const scope of required) expect(oauthScopes).toContain(scope);
      expect(op.security).toEqual([{ BearerAuth: [] }, { OAuth2: required }]);
      expect(op.tags?.length).toBeGreaterThan(0);
      expect(op.summary).toBeTruthy();
    },
  );

  it.each(ops.map((op) => [op.operationId!, op] as const))("%s answers every error in the one error shape", (_, op) => {
    const responses = rawResponses(op);
    for (const status of ["400", "401", "429", "500", "503"]) expect(Object.keys(responses)).toContain(status);
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) < 400) continue;
      expect(response.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
      expect(response.headers?.["X-Request-Id"]?.required).toBe(true);
    }
    expect(responses["429"]?.headers?.["Retry-After"]?.required).toBe(true);
  });

  it.each(ops.map((op) => [op.operationId!, op] as const))(
    "%s carries the rate-limit and request-id headers on success",
    (_, op) => {
      for (const [status, response] of Object.entries(rawResponses(op))) {
        if (!status.startsWith("2")) continue;
        for (const header of [
          "X-Request-Id",
          "RateLimit",
          "RateLimit-Policy",
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Used",
          "X-RateLimit-Reset",
        ]) {
          expect(response.headers?.[header]?.required, `${status} ${header}`).toBe(true);
        }
      }
    },
  );

  const lists = ops.filter((op) => op.operationId!.startsWith("list"));
  it.each(lists.map((op) => [op.operationId!, op] as const))("%s pages like every list", (_, op) => {
    const query = Object.fromEntries(
      (op.parameters as Parameter[]).filter((p) => p.in === "query").map((p) => [p.name, p]),
    );
    expect(query.cursor?.schema).toMatchObject({ type: "string", maxLength: 512 });
    expect(query.limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(query.limit?.explode ?? true).toBe(true);
    const schema = rawResponses(op)["200"]?.content?.["application/json"]?.schema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(["data", "next_cursor"]);
    expect(schema?.required?.sort()).toEqual(["data", "next_cursor"]);
    expect(schema?.properties?.data).toMatchObject({ type: "array", maxItems: 100 });
    expect(schema?.properties?.next_cursor).toMatchObject({ type: "string", nullable: true });
  });

  it("accepts Idempotency-Key on every creating POST, on rotating a secret, and only there", () => {
    const creating = ops.filter(
      (op) => op.method === "post" && Object.keys(op.responses ?? {}).some((s) => s === "201" || s === "202"),
    );
    // Not creating, but a retry must not rotate twice (the first new secret would be lost).
    const rotating = ops.filter((op) => op.operationId === "rotateWebhookSecret");
    const withKey = allOps.filter((op) => (op.parameters as Parameter[]).some((p) => p.name === "Idempotency-Key"));
    expect(withKey.map((op) => op.operationId).sort()).toEqual(
      [...creating, ...rotating].map((op) => op.operationId).sort(),
    );
    for (const id of ["createProject", "createDeployment", "triggerAgentRun"]) {
      expect(withKey.map((op) => op.operationId)).toContain(id);
    }
    for (const op of withKey) {
      expect(Object.keys(op.responses ?? {})).toEqual(expect.arrayContaining(["409", "422"]));
      expect(operationMeta[op.operationId as keyof typeof operationMeta].idempotent).toBe(true);
    }
  });

  it("creates a project exactly as the description says", () => {
    const op = ops.find((o) => o.operationId === "createProject")!;
    expect(op.method).toBe("post");
    expect(op.path).toBe("/v1/projects");
    expect((op as Record<string, unknown>)["x-required-scopes"]).toEqual(["projects:write"]);
    const body = jsonBody(op);
    expect(body?.required?.sort()).toEqual(["name", "prompt"]);
    expect(body?.properties?.agent?.default).toBe("coding-agent-1");
    expect(body?.properties?.agent?.allOf?.[0]?.enum).toEqual(["coding-agent-1", "coding-agent-2", "coding-agent-3"]);
    expect(body?.properties?.template?.nullable).toBe(true);
    expect(Object.keys(op.responses ?? {})).toEqual(expect.arrayContaining(["201", "400", "401"]));
    // As the server reads it: references resolved.
    const project = (op.responses as Record<string, Response>)["201"]?.content?.["application/json"]?.schema;
    expect(project?.required).toEqual(expect.arrayContaining(["id", "name", "agent", "visibility", "created_at"]));
    expect(project?.properties?.visibility?.enum).toEqual(["private", "unlisted", "public"]);
  });

  it("lists every error code of the description", () => {
    const codes = schemas.ErrorCode?.enum;
    for (const code of [
      "invalid_request",
      "missing_api_key",
      "invalid_api_key",
      "expired_api_key",
      "insufficient_scope",
      "key_rate_limited",
      "not_found",
      "method_not_allowed",
      "idempotency_key_in_use",
      "conflict",
      "payload_too_large",
      "unsupported_media_type",
      "idempotency_key_reused",
      "internal_error",
      "service_unavailable",
    ]) {
      expect(codes).toContain(code);
    }
    expect(schemas.ErrorDetail?.required?.sort()).toEqual(["code", "message", "param", "request_id"]);
  });

  it("validates bodies for real: a project without its id breaks the contract", async () => {
    expect(await responseErrors("getProject", 200, { name: "x" })).not.toEqual([]);
  });

  it("has at least one titled example per operation, and every example is valid", async () => {
    for (const op of allOps) {
      const responses = rawResponses(op);
      const examples = Object.entries(responses).flatMap(([status, response]) =>
        Object.entries(response.content?.["application/json"]?.examples ?? {}).map(([title, example]) => ({
          status,
          title,
          example,
        })),
      );
      const successHasJson = Object.entries(responses).some(
        ([status, r]) => status.startsWith("2") && r.content?.["application/json"],
      );
      if (!successHasJson) continue; // 204s, the binary download, revokeToken and authorize have no JSON example
      expect(examples.length, op.operationId).toBeGreaterThan(0);
      for (const { status, title, example } of examples) {
        expect(title.length).toBeLessThanOrEqual(24);
        expect(
          await responseErrors(op.operationId!, Number(status), example.value),
          `${op.operationId} ${title}`,
        ).toEqual([]);
      }
    }
  });

  it("describes webhook events: the envelope, every event type and the signature scheme", () => {
    const types = schemas.EventType?.enum ?? [];
    for (const prefix of ["project.", "agent_run.", "deployment.", "file.", "version.", "webhook.test"]) {
      expect(types.some((t) => t.startsWith(prefix))).toBe(true);
    }
    expect(schemas.Event?.anyOf ?? schemas.Event?.oneOf).toHaveLength(7);
    for (const name of [
      "ProjectEvent",
      "AgentRunEvent",
      "AgentRunProgressEvent",
      "DeploymentEvent",
      "FileEvent",
      "WebhookTestEvent",
    ]) {
      expect(schemas[name]?.required).toEqual(
        expect.arrayContaining(["id", "type", "created_at", "workspace_id", "livemode", "data"]),
      );
    }
    const signature = (schemas.ProjectEvent?.description ?? "") + JSON.stringify(schemas);
    for (const term of [
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "X-Svc-Signature",
      "whsec_",
      "5 minutes",
    ]) {
      expect(signature).toContain(term);
    }
  });
});
