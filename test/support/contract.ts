// The generated contract, loaded once per test file, with helpers to walk its operations and to
// validate bodies against it with the validator the server uses (src/http/contract.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Document, OpenAPIBackend, Operation } from "openapi-backend";
import { openApiBackend } from "../../src/http/contract.ts";

export const root = join(import.meta.dirname, "..", "..");
/** The canonical document as published (YAML), for tools that take a file. */
export const documentPath = join(root, "generated", "openapi.yaml");
// Read from its JSON twin (the same document: `npm run check` fails when either drifts from
// spec/): parsing the YAML took ~0.7 s of CPU in every test file that imports this module.
export const document = JSON.parse(readFileSync(join(root, "generated", "openapi.json"), "utf8")) as Document;

let backend: OpenAPIBackend | undefined;

/** openapi-backend over the canonical document, set up as the server sets it up. */
export async function contract(): Promise<OpenAPIBackend> {
  backend ??= await openApiBackend(structuredClone(document));
  return backend;
}

export async function operations(): Promise<Operation[]> {
  return (await contract()).getOperations();
}

/** Errors of `body` against the response schema of `operationId` at `status`, or [] when valid. */
export async function responseErrors(operationId: string, status: number, body: unknown): Promise<string[]> {
  const result = (await contract()).validator.validateResponse(body, operationId, status);
  return (result.errors ?? []).map(
    (error: { instancePath: string; message?: string }) => `${error.instancePath} ${error.message}`,
  );
}

type Content = Record<string, { examples?: Record<string, { value?: unknown }>; example?: unknown }>;

/** The request body's content, following a `$ref` into components.requestBodies when there is one. */
function requestContent(operation: Operation): Content | undefined {
  let body = operation.requestBody as { $ref?: string; content?: Content } | undefined;
  if (body?.$ref) {
    const name = body.$ref.split("/").pop()!;
    body = (document.components?.requestBodies as Record<string, { content?: Content }>)[name];
  }
  return body?.content;
}

/** A body `operation` accepts: the contract's first example, or a small form for an upload; none when it takes none. */
export function exampleBody(operation: Operation): { body?: unknown; raw?: FormData } {
  const content = requestContent(operation);
  if (!content) return {};
  const json = content["application/json"];
  if (json) {
    const example = json.example ?? Object.values(json.examples ?? {})[0]?.value;
    if (example === undefined) throw new Error(`${operation.operationId} has no request example`);
    return { body: example };
  }
  if (content["multipart/form-data"]) {
    const form = new FormData();
    form.append("path", "assets/logo.txt");
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "logo.txt");
    return { raw: form };
  }
  throw new Error(`${operation.operationId}: no way to build a ${Object.keys(content).join(", ")} body`);
}

/** A valid sample value for each path parameter of the contract, matching its pattern. */
export const samplePathParameters: Record<string, string> = {
  project_id: "prj_8kF2mQ9xLp3vR7tZ",
  run_id: "run_2Wc7Hn4Kq9Tz1Bx6",
  deployment_id: "dpl_6Vb3Nm8Qw2Lk5Jh1",
  version_id: "ver_3Nd8Kw2Px5Ry9Tb4",
  file_id: "file_3Qw8Er5Ty2Ui7Op4",
  webhook_endpoint_id: "we_7Kj3Hg9Fd2Sa5Lq8",
  delivery_id: "dlv_8Zx4Cv7Bn1Mq3Wr6",
  event_id: "evt_9Qa3Ws6Ed1Rf4Tg7",
};

export function samplePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = samplePathParameters[name];
    if (!value) throw new Error(`no sample value for path parameter ${name}`);
    return value;
  });
}
