// The mock and the server answer one client script alike: the same statuses and error codes (and the
// fields errors name), so error handling written against the mock holds against the server. The
// script is a frontend's first calls, through the client library, wrong ones included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient } from "../packages/client/src/index.ts";
import { startMock, type Mock } from "../packages/mock/src/index.ts";
import { pgliteDriver } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

interface Outcome {
  readonly call: string;
  readonly status: number;
  readonly code: string | null;
  readonly param: string | null;
}

/** The script: each call's status, and its error's code and param. */
async function script(baseUrl: string, apiKey: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const attempt = async (
    call: string,
    work: (client: ReturnType<typeof createClient>) => Promise<unknown>,
    key = apiKey,
  ) => {
    const client = createClient({ baseUrl, apiKey: key, maxRetries: 0 });
    try {
      await work(client);
      outcomes.push({ call, status: 200, code: null, param: null });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcomes.push({ call, status: error.status, code: error.code, param: error.param ?? null });
    }
  };
  const raw = async (call: string, init: RequestInit, path = "/v1/projects") => {
    const response = await fetch(baseUrl + path, init);
    const body = (await response.json()) as { error?: { code: string; param: string | null } };
    outcomes.push({ call, status: response.status, code: body.error?.code ?? null, param: body.error?.param ?? null });
  };
  await raw("list without a key", {});
  await raw("list with a malformed key", { headers: { Authorization: "Basic eA==" } });
  await attempt("create without a prompt", (client) =>
    client.POST("/v1/projects", { body: { name: "No prompt" } as never }),
  );
  await attempt("create with an unknown agent", (client) =>
    client.POST("/v1/projects", { body: { name: "x", prompt: "y", agent: "coding-agent-9" } as never }),
  );
  await attempt("create with an unknown field", (client) =>
    client.POST("/v1/projects", { body: { name: "x", prompt: "y", visiblity: "public" } as never }),
  );
  await attempt("list with limit 1000", (client) => client.GET("/v1/projects", { params: { query: { limit: 1000 } } }));
  await attempt("create", (client) => client.POST("/v1/projects", { body: { name: "Recipes", prompt: "A planner." } }));
  await attempt("list every page", async (client) => {
    for await (const project of client.paginate("/v1/projects")) expect(project.id).toMatch(/^prj_/);
  });
  return outcomes;
}

const server = suiteServer(pgliteDriver);

describe("the mock and the server, one client script", () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  }, 60_000);
  afterAll(() => mock?.stop());

  it("answer the same statuses, error codes and params", async () => {
    const fromServer = await script(server.url, await server.createKey({ workspace: "parity" }));
    const fromMock = await script(mock.url, "svc_test_anything");
    expect(fromMock).toEqual(fromServer);
    // The script does meet the refusals it is about.
    expect(fromServer.map((outcome) => outcome.code)).toEqual([
      "missing_api_key",
      "invalid_api_key",
      "invalid_request",
      "invalid_request",
      "invalid_request",
      "invalid_request",
      null,
      null,
    ]);
  });
});
