// Whether a raw response keeps the contract: a status the operation declares (404/405 outside any
// operation), a body that matches the operation's schema for that status, and for every error of
// the API the one error shape whose request_id is the response's X-Request-Id. Answers the problems
// found (none: conforms), so property tests can report them with the case that caused them.
import type { Operation } from "openapi-backend";
import { contract } from "../../support/contract.ts";
import type { RawResponse } from "./http.ts";

/** The operation a request reaches, routed as the server routes it (the target's path, dot segments resolved). */
export async function operationOf(method: string, target: string): Promise<Operation | undefined> {
  const api = await contract();
  let path: string;
  try {
    path = new URL(`http://localhost${target.startsWith("/") ? target : "/"}`).pathname;
  } catch {
    return undefined;
  }
  try {
    return api.matchOperation({ method: method.toLowerCase(), path, headers: {} }) || undefined;
  } catch {
    return undefined;
  }
}

export async function contractProblems(method: string, target: string, response: RawResponse): Promise<string[]> {
  const api = await contract();
  const problems: string[] = [];
  const operation = await operationOf(method, target);
  const servedByPipeline = !operation || !(operation as { "x-served-by"?: string })["x-served-by"];
  const requestId = response.headers["x-request-id"];
  if (servedByPipeline && !/^req_[0-9A-Za-z]{8,64}$/.test(String(requestId)))
    problems.push(`X-Request-Id ${JSON.stringify(requestId)}`);
  if (!operation) {
    if (![404, 405].includes(response.status))
      problems.push(`status ${response.status} outside any operation (404 or 405 expected)`);
  } else if (!Object.keys(operation.responses ?? {}).includes(String(response.status))) {
    problems.push(`status ${response.status} not declared by ${operation.operationId}`);
  }
  const isJson = /^application\/json/.test(String(response.headers["content-type"]));
  if (response.status >= 400 && servedByPipeline) {
    if (!isJson || response.json === undefined) {
      problems.push(
        `error body is not JSON (${response.headers["content-type"]}): ${response.body.toString("utf8").slice(0, 200)}`,
      );
    } else {
      const errors = api.validator.validateResponse(response.json, "getProject", 404).errors ?? [];
      for (const error of errors) problems.push(`error shape: ${error.instancePath} ${error.message}`);
      const body = response.json as { error?: { request_id?: unknown } };
      // A replayed answer (Idempotent-Replayed) is the first request's, its request_id included.
      const replayed = response.headers["idempotent-replayed"] === "true";
      if (body.error?.request_id !== requestId && !replayed)
        problems.push(
          `error.request_id ${JSON.stringify(body.error?.request_id)} is not X-Request-Id ${String(requestId)}`,
        );
    }
  }
  if (operation && isJson && response.json !== undefined) {
    const result = api.validator.validateResponse(response.json, operation, response.status);
    for (const error of result.errors ?? [])
      problems.push(`body of ${operation.operationId} ${response.status}: ${error.instancePath} ${error.message}`);
  }
  return problems;
}
