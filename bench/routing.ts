// Routing cost with the contract's operations and with twice as many (every path copied under
// /v2): nanoseconds per match of the pipeline's router (compileRoutes, src/http/contract.ts) and,
// for reference, of openapi-backend's own matchOperation, over the same request paths (every
// operation's path with sample ids, plus a path that matches nothing), in interleaved rounds.
import { readFileSync } from "node:fs";
import { OpenAPIBackend, type Document, type Operation } from "openapi-backend";
import { compileRoutes, contractJsonPath, pipelineOperations } from "../src/http/contract.ts";

export interface RoutingResult {
  readonly operations: number;
  /** Median ns per match, pipeline router. */
  readonly routerNs: number;
  /** Median ns per match, openapi-backend's matchOperation. */
  readonly openapiBackendNs: number;
}

function doubled(document: Document): Document {
  const paths: Record<string, unknown> = { ...document.paths };
  for (const [path, item] of Object.entries(document.paths ?? {})) paths[`/v2${path}`] = structuredClone(item);
  return { ...document, paths } as Document;
}

const sample = (template: string) => template.replace(/\{\w+\}/g, "abc_123XYZ");

function nsPerMatch(
  match: (method: string, path: string) => unknown,
  requests: ReadonlyArray<readonly [string, string]>,
  iterations: number,
): number {
  for (const [method, path] of requests) match(method, path); // warm
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const [method, path] = requests[i % requests.length]!;
    match(method, path);
  }
  return Number(process.hrtime.bigint() - started) / iterations;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchRouting(
  rounds = 5,
  iterations = 200_000,
): Promise<{ contract: RoutingResult; doubled: RoutingResult }> {
  const document = pipelineOperations(JSON.parse(readFileSync(contractJsonPath, "utf8")) as Document);
  const variants = { contract: document, doubled: doubled(document) };
  const prepared = await Promise.all(
    Object.entries(variants).map(async ([name, definition]) => {
      const api = new OpenAPIBackend({ definition: structuredClone(definition), quick: true, validate: false });
      await api.init();
      const operations: Operation[] = api.getOperations();
      const routes = compileRoutes(operations);
      return { name, operations: operations.length, routes, api };
    }),
  );
  // The same requests for both: the contract's own paths (the doubled contract has them too).
  const requests = [...(document.paths ? Object.entries(document.paths) : [])].flatMap(([path, item]) =>
    Object.keys(item ?? {})
      .filter((method) => ["get", "post", "patch", "put", "delete"].includes(method))
      .map((method) => [method, sample(path)] as const),
  );
  requests.push(["get", "/v1/nothing/here"]);
  const times: Record<string, { router: number[]; oab: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const variant of prepared) {
      const entry = (times[variant.name] ??= { router: [], oab: [] });
      entry.router.push(
        nsPerMatch(
          (method, path) => variant.routes.matching(path).find((operation) => operation.method === method),
          requests,
          iterations,
        ),
      );
      entry.oab.push(
        nsPerMatch(
          (method, path) => variant.api.matchOperation({ method, path, headers: {} }),
          requests,
          iterations / 20,
        ),
      );
    }
  }
  const result = (name: "contract" | "doubled"): RoutingResult => ({
    operations: prepared.find((variant) => variant.name === name)!.operations,
    routerNs: median(times[name]!.router),
    openapiBackendNs: median(times[name]!.oab),
  });
  return { contract: result("contract"), doubled: result("doubled") };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchRouting(), null, 2));
}
