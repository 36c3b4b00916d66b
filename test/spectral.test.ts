// Unit tests of the lint rules in .spectral.yaml.
//
// test/fixtures/spectral/valid.yaml follows every convention of the contract
// and must lint clean under the WHOLE ruleset (spectral:oas all, OWASP, ours).
// Each case below breaks it in one place and expects our rule to say so.
// All documents are linted in one Spectral run, through scripts/lint.ts.
// Last, the overrides of .spectral.yaml that exempt the OAuth endpoints are checked to reach them
// and nothing else.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { root, runSpectral } from "../scripts/lint.ts";
import type { Finding } from "../scripts/lint.ts";

// Parsed YAML: deliberately loose, the cases poke at arbitrary places.
type Doc = Record<string, any>;

const valid: Doc = parse(readFileSync(join(root, "test/fixtures/spectral/valid.yaml"), "utf8"));

/** The same document as OpenAPI 3.1: `nullable: true` becomes a `"null"` type. */
function toOpenApi31(doc: Doc): Doc {
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (!node || typeof node !== "object") return node;
    const out: Doc = {};
    for (const [key, value] of Object.entries(node)) if (key !== "nullable") out[key] = convert(value);
    if ((node as Doc).nullable === true) out.type = [(node as Doc).type, "null"];
    return out;
  };
  return { ...(convert(doc) as Doc), openapi: "3.1.0" };
}

interface Case {
  name: string;
  rule: string;
  message: string;
  mutate: (doc: Doc) => void;
  openapi31?: boolean;
}

const listProjects = (doc: Doc): Doc => doc.paths["/v1/projects"].get;
const createProject = (doc: Doc): Doc => doc.paths["/v1/projects"].post;

const cases: Case[] = [
  {
    name: "an operation without x-required-scopes",
    rule: "pb-operation-scopes",
    message: "createProject: missing `x-required-scopes`",
    mutate: (doc) => delete createProject(doc)["x-required-scopes"],
  },
  {
    name: "a required scope no OAuth2 scheme declares",
    rule: "pb-operation-scopes",
    message: 'scope "projects:admin" is not declared',
    mutate: (doc) => {
      createProject(doc)["x-required-scopes"] = ["projects:admin"];
      createProject(doc).security[1].OAuth2 = ["projects:admin"];
    },
  },
  {
    name: "x-required-scopes disagreeing with the OAuth2 security requirement",
    rule: "pb-operation-scopes",
    message: 'OAuth2 requirement "OAuth2" lists [projects:read] but x-required-scopes is [projects:write]',
    mutate: (doc) => (createProject(doc).security[1].OAuth2 = ["projects:read"]),
  },
  {
    name: "an operation without a summary",
    rule: "pb-operation-metadata",
    message: "summary",
    mutate: (doc) => delete createProject(doc).summary,
  },
  {
    name: "an operation without tags",
    rule: "pb-operation-metadata",
    message: "tags",
    mutate: (doc) => (createProject(doc).tags = []),
  },
  {
    name: "a list page without next_cursor",
    rule: "pb-list-pagination",
    message: "listProjects: the page must have `next_cursor`",
    mutate: (doc) => {
      const page = doc.components.schemas.ProjectList;
      delete page.properties.next_cursor;
      page.required = ["data"];
    },
  },
  {
    name: "a list page whose next_cursor is not nullable",
    rule: "pb-list-pagination",
    message: "`next_cursor` must be a nullable string",
    mutate: (doc) => delete doc.components.schemas.ProjectList.properties.next_cursor.nullable,
  },
  {
    name: "a list page whose next_cursor is not nullable (OpenAPI 3.1)",
    rule: "pb-list-pagination",
    message: "`next_cursor` must be a nullable string",
    openapi31: true,
    mutate: (doc) => (doc.components.schemas.ProjectList.properties.next_cursor.type = "string"),
  },
  {
    name: "a list operation without the cursor parameter",
    rule: "pb-list-pagination",
    message: "listProjects: list operations take a `cursor` query parameter",
    mutate: (doc) => (listProjects(doc).parameters = [{ $ref: "#/components/parameters/Limit" }]),
  },
  {
    name: "a camelCase property in a nested schema",
    rule: "pb-snake-case-properties",
    message: 'Property "createdAt" is not snake_case',
    mutate: (doc) => {
      const project = doc.components.schemas.Project;
      project.properties.createdAt = project.properties.created_at;
      delete project.properties.created_at;
      project.required = ["id", "name", "createdAt"];
      listProjects(doc).responses["200"].content["application/json"].examples.first_page.value.data[0] = {
        id: "prj_7Hq2",
        name: "Todo app",
        createdAt: "2025-01-01T00:00:00Z",
      };
    },
  },
  {
    name: "an error response whose body is a copy of the error shape instead of the Error schema",
    rule: "pb-error-responses",
    message: "createProject: the 400 response body must be `$ref: '#/components/schemas/Error'`",
    mutate: (doc) => {
      const copy = structuredClone(doc.components.responses.BadRequest);
      copy.content["application/json"].schema = structuredClone(doc.components.schemas.Error);
      createProject(doc).responses["400"] = copy;
    },
  },
  {
    name: "an operation without a 429 response",
    rule: "pb-error-responses",
    message: "listProjects: missing the 429 response",
    mutate: (doc) => delete listProjects(doc).responses["429"],
  },
  {
    name: "a 2xx response without X-Request-Id",
    rule: "pb-response-headers",
    message: "createProject: the 201 response is missing header(s) X-Request-Id",
    mutate: (doc) => delete createProject(doc).responses["201"].headers["X-Request-Id"],
  },
  {
    name: "a 429 response without the X-RateLimit-* headers",
    rule: "pb-response-headers",
    message: "is missing header(s) X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
    mutate: (doc) => {
      const headers = doc.components.responses.TooManyRequests.headers;
      for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) delete headers[name];
    },
  },
  {
    name: "a 4xx response without any rate-limit header",
    rule: "pb-rate-limit-2xx-4xx",
    message: "rate limiting headers",
    mutate: (doc) => delete doc.components.responses.BadRequest.headers.RateLimit,
  },
];

let dir = "";
const findings = new Map<string, Finding[]>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "spectral-rules-"));
  const documents: Record<string, Doc> = { "valid.json": valid, "valid-3.1.json": toOpenApi31(valid) };
  cases.forEach((testCase, i) => {
    const doc = structuredClone(testCase.openapi31 ? toOpenApi31(valid) : valid);
    testCase.mutate(doc);
    documents[`case-${i}.json`] = doc;
  });
  for (const [file, doc] of Object.entries(documents)) {
    writeFileSync(join(dir, file), JSON.stringify(doc, null, 2));
    findings.set(file, []);
  }
  for (const finding of await runSpectral(Object.keys(documents).map((file) => join(dir, file)))) {
    const file = (finding.source ?? "").split(/[\\/]/).pop() ?? "";
    findings.get(file)?.push(finding);
  }
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const describeFindings = (list: Finding[]): string[] =>
  list.map((f) => `${f.code} @ ${f.path.join(".")}: ${f.message}`);

describe("the valid fixture", () => {
  it("has no finding at all under the whole ruleset (OpenAPI 3.0)", () => {
    expect(describeFindings(findings.get("valid.json") ?? [])).toEqual([]);
  });

  it("has no finding at all under the whole ruleset (OpenAPI 3.1)", () => {
    expect(describeFindings(findings.get("valid-3.1.json") ?? [])).toEqual([]);
  });
});

describe("custom rules", () => {
  cases.forEach((testCase, i) => {
    it(`${testCase.rule} catches ${testCase.name}`, () => {
      const found = findings.get(`case-${i}.json`) ?? [];
      const ours = found.filter((f) => String(f.code).startsWith("pb-"));
      // The expected rule fires with the expected message...
      expect(
        ours.some((f) => f.code === testCase.rule && f.message.includes(testCase.message)),
        describeFindings(found).join("\n"),
      ).toBe(true);
      // ...and none of our other rules does: each rule checks one thing.
      expect(ours.filter((f) => f.code !== testCase.rule).map((f) => f.code)).toEqual([]);
    });
  });
});

describe("the overrides exempting the OAuth endpoints", () => {
  // The operations served by the OAuth authorization server (x-served-by: oauth), outside /v1: the
  // only ones our pb-* rules and the rate-limit rules may be switched off for.
  const oauthOperations = ["getAuthorizationServerMetadata", "authorize", "requestToken", "revokeToken"];
  const exemptable = /^pb-|^owasp:api4:2023-rate-limit|^owasp:api8:2023-define-error/;
  const ruleset = parse(readFileSync(join(root, ".spectral.yaml"), "utf8")) as {
    overrides: { files: string[]; rules: Record<string, string> }[];
  };
  const generated = (file: string): Doc => parse(readFileSync(join(root, "generated", file), "utf8"));
  const documents: Record<string, Doc> = {
    "openapi.yaml": generated("openapi.yaml"),
    "openapi.3.1.yaml": generated("openapi.3.1.yaml"),
  };

  /** The operation a `generated/<file>#/paths/<path>/<method>[/...]` override points into. */
  function operationAt(target: string): { file: string; operation: Doc | undefined } {
    const [file, pointer = ""] = target.replace(/^generated\//, "").split("#");
    const [, section, path, method] = pointer.split("/");
    expect(section, target).toBe("paths");
    const decoded = decodeURIComponent(path!).replace(/~1/g, "/").replace(/~0/g, "~");
    return { file: file!, operation: documents[file!]?.paths?.[decoded]?.[method!] };
  }

  const exempting = ruleset.overrides.filter((override) =>
    Object.keys(override.rules).some((rule) => exemptable.test(rule)),
  );

  it("switch rules off only for the named OAuth operations, in both documents", () => {
    expect(exempting.length).toBeGreaterThan(0);
    for (const override of exempting) {
      const reached = override.files.map(operationAt);
      for (const { operation } of reached) {
        expect(oauthOperations).toContain(operation?.operationId);
        expect(operation?.["x-served-by"]).toBe("oauth");
      }
      const ids = (file: string) =>
        reached
          .filter((r) => r.file === file)
          .map((r) => r.operation?.operationId)
          .sort();
      expect(ids("openapi.3.1.yaml")).toEqual(ids("openapi.yaml"));
    }
  });

  it("cover every OAuth operation for our own rules", () => {
    for (const rule of ["pb-operation-scopes", "pb-error-responses", "pb-response-headers"]) {
      const covered = exempting
        .filter((override) => override.rules[rule] === "off")
        .flatMap((override) => override.files.map((target) => operationAt(target).operation?.operationId));
      expect([...new Set(covered)].sort(), rule).toEqual([...oauthOperations].sort());
    }
  });
});
