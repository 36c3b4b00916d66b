// The pipeline's router (compiled once at start, src/http/contract.ts) against openapi-backend's own
// matchOperation, which rebuilds its routes on every request: for every operation of the contract,
// and for paths near them, both choose the same operation, or both none.
import { OpenAPIBackend } from "openapi-backend";
import { describe, expect, it } from "vitest";
import { compileRoutes, loadContract, pipelineOperations } from "../src/http/contract.ts";
import { HttpError } from "../src/http/errors.ts";
import { document, samplePath } from "./support/contract.ts";

const methods = ["get", "post", "patch", "put", "delete"];

describe("routing, compiled once", async () => {
  const reference = new OpenAPIBackend({
    definition: pipelineOperations(structuredClone(document)),
    quick: true,
    validate: false,
  });
  await reference.init();
  const operations = reference.getOperations();
  const contract = await loadContract();

  it("chooses what openapi-backend chooses, for every operation's path, with every method, and nearby paths", () => {
    const paths = operations.flatMap((operation) => {
      const path = samplePath(operation.path);
      return [path, `${path}/`, `${path}/extra`, path.replace(/\/[^/]+$/, "/x"), path.toUpperCase()];
    });
    expect(operations.length).toBeGreaterThan(25);
    for (const path of [...paths, "/", "/v1", "/v1/nothing", "//v1/projects"]) {
      for (const method of methods) {
        const expected = reference.matchOperation({ method, path, headers: {} })?.operationId;
        let chosen: string | undefined;
        try {
          chosen = contract.match(method.toUpperCase(), path).operationId;
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
        }
        expect(chosen, `${method} ${path}`).toBe(expected);
      }
    }
  });

  it("prefers an exact path, then the template with more literal characters", () => {
    const op = (path: string, operationId: string) => ({ path, method: "get", operationId }) as never;
    const routes = compileRoutes([op("/a/{x}/{y}", "two"), op("/a/{x}/c", "one"), op("/a/b/c", "exact")]);
    expect(routes.matching("/a/b/c").map((route) => route.operationId)).toEqual(["exact", "one", "two"]);
    expect(routes.matching("/a/z/c").map((route) => route.operationId)).toEqual(["one", "two"]);
    expect(routes.matching("/a/z/q").map((route) => route.operationId)).toEqual(["two"]);
    expect(routes.matching("/a/z")).toEqual([]);
  });

  it("answers 405 with the path's methods, and 404 for no path", () => {
    const project = samplePath("/v1/projects/{project_id}");
    expect(() => contract.match("PUT", project)).toThrow(
      expect.objectContaining({ status: 405, headers: { Allow: "GET, DELETE, PATCH" } }),
    );
    expect(() => contract.match("GET", "/v1/nothing")).toThrow(expect.objectContaining({ status: 404 }));
  });
});
