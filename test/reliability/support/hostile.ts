// Hostile requests generated with fast-check from the contract (generated/openapi.json): for every
// operation, a request that is valid but for one thing the contract or the service rules out —
// a credential, a path or query parameter, a header, the body's JSON, a field's type, presence,
// length or Unicode, the content type or encoding, the size, a webhook target, an upload's parts —
// plus wrong methods and routes that do not exist. Each case is known to be invalid, so the server
// must refuse it (4xx, in the contract's error shape) and store nothing; the generators leave out
// what would in fact be valid (a value ajv coerces, a dot segment that routes elsewhere, a
// truncated base64 character that decodes the same).
import fc from "fast-check";
import type { Operation } from "openapi-backend";
import { document } from "../../support/contract.ts";

/** The live data a hostile request aims at, made by the suite before it starts. */
export interface HostileFixture {
  /** Full-access live key of workspace acme. */
  readonly key: string;
  /** Keys that must be refused: revoked, expired; one with only `billing:read`, one with only `projects:read`. */
  readonly revokedKey: string;
  readonly expiredKey: string;
  readonly billingOnlyKey: string;
  readonly projectsReadKey: string;
  /** Valid keys that do not reach acme's live data: acme's test partition, another workspace. */
  readonly testKey: string;
  readonly otherWorkspaceKey: string;
  /** Path parameter values of acme's live data, by name (project_id, file_id, …). */
  readonly ids: Readonly<Record<string, string>>;
  /** A project of another workspace. */
  readonly otherProjectId: string;
  /** A file path already taken in `ids.project_id`. */
  readonly takenPath: string;
  /** `next_cursor` of GET /v1/projects?limit=1, and of GET /v1/events?limit=1. */
  readonly projectsCursor: string;
  readonly eventsCursor: string;
}

export interface HostileCase {
  /** What makes it invalid, for the report. */
  readonly kind: string;
  readonly operationId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
  /** The Idempotency-Key sent (a handler's refusal, 404 or 409, is stored under it for replay). */
  readonly idempotencyKey?: string;
  /**
   * What answers it rightly: 4xx; for the OAuth endpoints any answer short of 5xx (RFC 7009 answers
   * 200 to an unknown token); for a message to /mcp, a refusal in the protocol's shape.
   */
  readonly accepts: "4xx" | "below 500" | "an MCP refusal";
}

// ---------------------------------------------------------------------------------------------
// The contract, as the generators need it

interface Schema {
  type?: string;
  enum?: (string | number | boolean | null)[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
}

interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header";
  readonly schema: Schema;
}

export interface ContractOperation {
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
  readonly parameters: readonly Parameter[];
  /** Media types the body may have, its schema and an example from the contract; undefined without a body. */
  readonly body:
    { readonly mediaTypes: readonly string[]; readonly schema: Schema; readonly example: unknown } | undefined;
  readonly scopes: readonly string[];
  /** The OAuth endpoints, served outside the API pipeline with their own errors. */
  readonly oauth: boolean;
  readonly idempotent: boolean;
}

/** A schema with $ref and allOf folded in (one level of each suffices for this contract). */
function resolve(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.split("/").at(-1)!;
    const target = (document.components as { schemas: Record<string, Schema> }).schemas[name]!;
    const { $ref: _ref, ...rest } = schema;
    return resolve({ ...target, ...rest });
  }
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    return allOf.reduce<Schema>((merged, part) => ({ ...resolve(part), ...merged }), rest);
  }
  return schema;
}

function resolveParameter(parameter: unknown): Parameter {
  const ref = (parameter as { $ref?: string }).$ref;
  const raw = ref
    ? (document.components as { parameters: Record<string, unknown> }).parameters[ref.split("/").at(-1)!]
    : parameter;
  const { name, in: where, schema } = raw as { name: string; in: Parameter["in"]; schema: Schema };
  return { name, in: where, schema: resolve(schema) };
}

export const contractOperations: readonly ContractOperation[] = Object.entries(document.paths ?? {}).flatMap(
  ([template, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([, operation]) => typeof operation === "object" && operation?.operationId)
      .map(([method, operation]): ContractOperation => {
        const content = (
          operation.requestBody as {
            content?: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }>;
          }
        )?.content;
        const mediaTypes = Object.keys(content ?? {});
        const first = content?.[mediaTypes[0]!];
        const parameters = (operation.parameters ?? []).map(resolveParameter);
        return {
          operationId: operation.operationId!,
          method: method.toUpperCase(),
          template,
          parameters,
          body: first
            ? { mediaTypes, schema: resolve(first.schema), example: Object.values(first.examples ?? {})[0]?.value }
            : undefined,
          scopes: (operation as { "x-required-scopes"?: string[] })["x-required-scopes"] ?? [],
          oauth: (operation as { "x-served-by"?: string })["x-served-by"] === "oauth",
          idempotent: parameters.some((parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key"),
        };
      }),
);

// ---------------------------------------------------------------------------------------------
// Values

/** Characters that make text odd: NUL, a lone surrogate, RTL override and marks, combining marks, zero-width, BOM, homoglyphs, fullwidth. */
export const oddCharacters = [
  "\u0000",
  "\ud800",
  "\udfff",
  "\u202e",
  "\u200f",
  "\u0301",
  "\u0336",
  "\u200b",
  "\u2060",
  "\ufeff",
  "\u0430",
  "\uff41",
  "\u00a0",
  "\u3000",
  "\u{1F4A9}",
  "\ufffd",
  "\u0085",
];

/** A string with at least one odd character, at any place. */
const oddString = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...oddCharacters), fc.string({ maxLength: 12 }))
  .map(([before, odd, after]) => before + odd + after);

/** Any string at all: every code point, lone surrogates included. */
export const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  oddString,
  fc.constantFrom(
    "",
    " ",
    "null",
    "undefined",
    "0",
    "-1",
    "true",
    "[]",
    "{}",
    "' OR '1'='1",
    "\\",
    "%00",
    "${x}",
    "{{x}}",
    "<script>",
  ),
);

/** Percent-encodes a path segment or query value; a lone surrogate as the bytes a careless client sends (CESU-style). */
export function encode(text: string): string {
  let out = "";
  for (const char of text) {
    const unit = char.codePointAt(0)!;
    if (unit < 0xd800 || unit > 0xdfff) {
      out += encodeURIComponent(char);
      continue;
    }
    for (const byte of [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)])
      out += `%${byte.toString(16).toUpperCase()}`;
  }
  return out;
}

/** Raw encodings no string produces: overlong and invalid UTF-8, encoded separators, double encoding. */
const rawSegments = [
  "%00",
  "%FF",
  "%C0%AE%C0%AE",
  "%ED%A0%80",
  "%E2%80%AE",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "..%5C..%5Cwindows",
  "%252e%252e%252f",
  "....%2F%2F",
  "%2F",
  "a%2Fb",
  "%",
  "%G1",
  "%e",
].filter(staysInPlace);

/** Values that do not match `schema` (a path parameter's id pattern, an enum). */
export function notMatching(schema: Schema): fc.Arbitrary<string> {
  const pattern = schema.pattern ? new RegExp(schema.pattern, "u") : undefined;
  const matches = (value: string) =>
    (pattern ? pattern.test(value) : true) &&
    (schema.enum ? schema.enum.includes(value) : true) &&
    value.length <= (schema.maxLength ?? Infinity) &&
    value.length >= (schema.minLength ?? 0);
  const example =
    (schema.enum?.[0] as string | undefined) ?? (schema.pattern?.startsWith("^prj_") ? "prj_12345678" : "x");
  // Near misses: a valid-looking value with one odd change. (Listed eagerly: a filter that can
  // refuse every value of an arbitrary would make fast-check try for ever.)
  const nearMisses = [...oddCharacters, " ", "/", ".", "-", "A"]
    .flatMap((odd) => [odd + example, example + odd])
    .concat(example.toUpperCase())
    .filter((value) => !matches(value));
  const constrained = schema.pattern !== undefined || schema.enum !== undefined || (schema.minLength ?? 0) > 0;
  return fc.oneof(
    ...(constrained ? [anyString.filter((value) => !matches(value)), fc.constantFrom(...nearMisses)] : []),
    fc.integer({ min: 1, max: 5000 }).map((extra) => example + "x".repeat((schema.maxLength ?? 64) + extra)),
  );
}

/** True when a path built with `segment` routes as written: no dot segment resolves it to another route. */
function staysInPlace(segment: string): boolean {
  try {
    return new URL(`http://h/a/${segment}/b`).pathname === `/a/${segment}/b` && segment !== "";
  } catch {
    return false;
  }
}

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no fixture value for {${name}}`);
    return value;
  });
}

const jsonOf = (value: unknown) => JSON.stringify(value);

// ---------------------------------------------------------------------------------------------
// Mutations: each an arbitrary of cases for one operation

export function hostileCases(fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const byOperation = contractOperations.flatMap((operation) => mutationsOf(operation, fixture) ?? []);
  return fc.oneof(
    { arbitrary: fc.oneof(...byOperation), weight: 20 },
    { arbitrary: wrongMethod(fixture), weight: 1 },
    { arbitrary: unknownRoute(fixture), weight: 1 },
  );
}

/** The cases for one operation; undefined for one that takes no input at all (the OAuth metadata: wrong methods only). */
function mutationsOf(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> | undefined {
  const arbitraries: fc.Arbitrary<HostileCase>[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<HostileCase> | undefined) => {
    if (arbitrary) for (let i = 0; i < weight; i++) arbitraries.push(arbitrary);
  };
  if (!operation.oauth) add(2, credentials(operation, fixture));
  add(3, pathParameters(operation, fixture));
  add(2, queryParameters(operation, fixture));
  add(1, idempotencyKeys(operation, fixture));
  if (operation.body?.mediaTypes.includes("application/json")) {
    add(6, jsonBodies(operation, fixture));
    add(2, mediaTypes(operation, fixture));
    add(1, oversized(operation, fixture));
  }
  if (operation.operationId === "createWebhookEndpoint" || operation.operationId === "updateWebhookEndpoint")
    add(4, webhookTargets(operation, fixture));
  if (operation.operationId === "uploadFile") add(8, uploads(operation, fixture));
  if (arbitraries.length === 0) return undefined;
  const cases = fc.oneof(...arbitraries);
  if (!operation.idempotent) return cases;
  // Half of the cases to creating operations carry a well-formed Idempotency-Key of their own.
  return fc
    .tuple(
      cases,
      fc.option(
        fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-"), minLength: 24, maxLength: 40 }),
      ),
    )
    .map(([hostile, key]) =>
      key === null || "Idempotency-Key" in hostile.headers
        ? hostile
        : { ...hostile, idempotencyKey: key, headers: { ...hostile.headers, "Idempotency-Key": key } },
    );
}

/** A baseline request to the operation on the fixture's data, valid unless a mutation says otherwise. */
function baseline(operation: ContractOperation, fixture: HostileFixture, kind: string): HostileCase {
  const headers: Record<string, string> = operation.oauth ? {} : { Authorization: `Bearer ${fixture.key}` };
  let body: string | undefined;
  if (operation.body?.mediaTypes.includes("application/json")) {
    body = jsonOf(operation.body.example ?? {});
    headers["Content-Type"] = "application/json";
  }
  return {
    kind,
    operationId: operation.operationId,
    method: operation.method,
    path: fillTemplate(operation.template, fixture.ids),
    headers,
    ...(body === undefined ? {} : { body }),
    accepts: operation.oauth ? "below 500" : "4xx",
  };
}

function credentials(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  // A key without the scope the operation needs (the operations that need none, GET /v1/key, have no such case).
  const lacking =
    operation.scopes.length === 0
      ? []
      : [`Bearer ${operation.scopes.includes("billing:read") ? fixture.projectsReadKey : fixture.billingOnlyKey}`];
  const forged = fc
    .tuple(
      fc.constantFrom("svc_live_", "svc_test_", "pbo_at_", ""),
      fc.string({
        unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
        minLength: 0,
        maxLength: 60,
      }),
    )
    .map(([prefix, rest]) => `Bearer ${prefix}${rest}`);
  const authorization = fc.oneof(
    fc.constant(undefined),
    forged,
    fc.constantFrom(
      "Bearer",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      "Token abc",
      `Bearer ${fixture.key}x`,
      `Bearer ${fixture.key.slice(0, -1)}`,
      `Bearer  ${fixture.key.slice(0, 20)}`,
      `Bearer ${fixture.revokedKey}`,
      `Bearer ${fixture.expiredKey}`,
      ...lacking,
      `Bearer ${"A".repeat(5000)}`,
      `Bearer ${fixture.key.replace(/.$/, "\u00e9")}`,
    ),
  );
  // A valid key of another partition or workspace is refused on ids it does not own (404).
  const hasIds = operation.parameters.some((parameter) => parameter.in === "path");
  return fc
    .oneof(
      authorization,
      ...(hasIds ? [fc.constantFrom(`Bearer ${fixture.testKey}`, `Bearer ${fixture.otherWorkspaceKey}`)] : []),
    )
    .map((value) => {
      const request = baseline(operation, fixture, "credentials");
      const { Authorization: _, ...headers } = request.headers;
      return {
        ...request,
        kind: `credentials: ${value === undefined ? "none" : value.slice(0, 40)}`,
        headers: value === undefined ? headers : { ...headers, Authorization: value },
      };
    });
}

function pathParameters(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> | undefined {
  const parameters = operation.parameters.filter((parameter) => parameter.in === "path");
  if (parameters.length === 0) return undefined;
  return fc
    .tuple(
      fc.constantFrom(...parameters),
      fc.oneof(
        { arbitrary: fc.constantFrom(...rawSegments), weight: 2 },
        { arbitrary: fc.constant("nonexistent"), weight: 1 },
        { arbitrary: fc.constant("other workspace"), weight: 1 },
        { arbitrary: fc.constant("schema"), weight: 4 },
      ),
      fc.string({
        unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        minLength: 8,
        maxLength: 64,
      }),
    )
    .chain(([parameter, how, random]) => {
      const prefix = (parameter.schema.pattern ?? "^x_").match(/^\^(\w+_)/)?.[1] ?? "";
      const segment: fc.Arbitrary<[string, string]> =
        how === "schema"
          ? notMatching(parameter.schema).map((value) => [encode(value), "malformed"] as [string, string])
          : how === "nonexistent"
            ? fc.constant([prefix + random, "nonexistent"])
            : how === "other workspace"
              ? fc.constant([
                  parameter.name === "project_id" ? fixture.otherProjectId : prefix + random,
                  "other workspace",
                ])
              : fc.constant([how, "raw encoding"]);
      return segment
        .filter(([value]) => staysInPlace(value))
        .map(([value, what]): HostileCase => {
          const request = baseline(operation, fixture, "");
          return {
            ...request,
            kind: `path ${parameter.name}: ${what}`,
            path: fillTemplate(operation.template, { ...fixture.ids, [parameter.name]: value }),
          };
        });
    });
}

function queryParameters(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> | undefined {
  const parameters = operation.parameters.filter((parameter) => parameter.in === "query");
  if (parameters.length === 0) return undefined;
  const foreignCursor = operation.operationId === "listEvents" ? fixture.projectsCursor : fixture.eventsCursor;
  const ownCursor =
    operation.operationId === "listEvents"
      ? fixture.eventsCursor
      : operation.operationId === "listProjects"
        ? fixture.projectsCursor
        : undefined;
  return fc.constantFrom(...parameters).chain((parameter) => {
    let values: fc.Arbitrary<string>;
    if (parameter.name === "limit") {
      values = fc.oneof(
        fc.constantFrom(
          "0",
          "101",
          "-1",
          "1.5",
          "abc",
          "NaN",
          "Infinity",
          "-Infinity",
          "1e3",
          "99999999999999999999",
          "\u0663",
          "１０",
          "10abc",
          "[]",
          "true",
        ),
        fc.integer({ min: 101, max: 2 ** 40 }).map(String),
        fc.integer({ min: -(2 ** 40), max: 0 }).map(String),
      );
    } else if (parameter.name === "cursor") {
      values = fc.oneof(
        // Forged: the right alphabet, no valid signature.
        fc.string({
          unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
          minLength: 1,
          maxLength: 512,
        }),
        // Tampered: one character of a real cursor changed, anywhere but the last (whose low bits base64 may ignore).
        ...(ownCursor
          ? [
              fc
                .tuple(
                  fc.nat({ max: ownCursor.length - 2 }),
                  fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
                )
                .map(
                  ([at, char]) =>
                    ownCursor.slice(0, at) +
                    (ownCursor[at] === char ? (char === "A" ? "B" : "A") : char) +
                    ownCursor.slice(at + 1),
                ),
              fc.constantFrom(ownCursor.slice(0, -2), ownCursor + "AA", ownCursor.split("").reverse().join("")),
            ]
          : []),
        // Another list's cursor, outside the alphabet, too long.
        fc.constantFrom(foreignCursor, "a+b/c=", "x".repeat(513), "..%2F", "%00"),
        notMatching(parameter.schema),
      );
    } else {
      values = notMatching(parameter.schema);
    }
    return values.map((value): HostileCase => {
      const request = baseline(operation, fixture, "");
      // A cursor that is already percent-encoded text (or a lone "%") goes as written, when it can: an
      // HTTP client sends only visible ASCII in a request line.
      const raw = parameter.name === "cursor" && /%[0-9A-Fa-f]{2}|^%/.test(value) && /^[\x21-\x7e]*$/.test(value);
      const encoded = raw ? value : encode(value);
      return { ...request, kind: `query ${parameter.name}`, path: `${request.path}?${parameter.name}=${encoded}` };
    });
  });
}

function idempotencyKeys(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> | undefined {
  if (!operation.idempotent) return undefined;
  return fc
    .oneof(
      fc.constantFrom("", "a b", "caf\u00e9", "\u00ff\u00fe", "key\u00a0x"),
      fc.integer({ min: 256, max: 8000 }).map((length) => "k".repeat(length)),
    )
    .map((key): HostileCase => {
      const request = baseline(operation, fixture, "");
      return {
        ...request,
        kind: "Idempotency-Key malformed",
        headers: { ...request.headers, "Idempotency-Key": key },
        idempotencyKey: key,
      };
    });
}

/** A value of none of the JSON types `schema` allows. */
function wrongTypeFor(schema: Schema): fc.Arbitrary<unknown> {
  const type =
    schema.type ?? (schema.enum ? "string" : schema.properties ? "object" : schema.items ? "array" : undefined);
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (type !== "string") candidates.push(anyString);
  // Finite only: JSON has no NaN or Infinity, and JSON.stringify writes them as null, which a nullable field accepts.
  if (type !== "integer" && type !== "number")
    candidates.push(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })));
  if (type !== "boolean") candidates.push(fc.boolean());
  if (type !== "array") candidates.push(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }));
  if (type !== "object")
    candidates.push(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }));
  if (!schema.nullable) candidates.push(fc.constant(null));
  return fc.oneof(...candidates);
}

/** True when "" is not a valid value of the string schema. */
function refusesEmpty(schema: Schema): boolean {
  if ((schema.minLength ?? 0) >= 1 || schema.enum || schema.format === "uri") return true;
  return schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test("");
}

export function jsonBodies(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const schema = operation.body!.schema;
  const example = (operation.body!.example ?? {}) as Record<string, unknown>;
  const properties = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => [name, resolve(property)] as const,
  );
  const strings = properties.filter(([, property]) => property.type === "string" || property.enum);
  const withBody = (kind: string, body: string | Buffer): HostileCase => ({
    ...baseline(operation, fixture, kind),
    body,
  });
  const object = (kind: string, value: unknown) => withBody(kind, jsonOf(value));
  const cases: fc.Arbitrary<HostileCase>[] = [];

  // Broken JSON: cut short, or not JSON at all.
  const text = jsonOf(example);
  cases.push(
    fc
      .integer({ min: 1, max: Math.max(1, text.length - 1) })
      .map((at) => withBody("JSON cut short", text.slice(0, at))),
  );
  cases.push(
    fc
      .constantFrom(
        "{",
        "}",
        "{,}",
        `${text},`,
        `${text}${text}`,
        `${text} x`,
        `\ufeff${text}`,
        text.replace(/"/g, "'"),
        text.replace(/"(\w+)":/g, "$1:"),
        `{"name": NaN}`,
        `{"name": Infinity}`,
        `/* c */ ${text}`,
        `{"a": 1,}`,
        `{"a": "\\x41"}`,
        `{"a": "\\u12"}`,
        "nul",
        "tru",
        '"unterminated',
      )
      .map((raw) => withBody("not JSON", raw)),
  );
  // Valid JSON that is not an object.
  cases.push(
    fc
      .oneof(fc.array(fc.jsonValue({ maxDepth: 2 })), fc.string(), fc.double(), fc.boolean(), fc.constant(null))
      .map((value) => object("not an object", value)),
  );
  // Nested past any reason, as the body or as a field.
  cases.push(
    fc
      .tuple(
        fc.integer({ min: 1000, max: 200_000 }),
        fc.boolean(),
        fc.constantFrom(...(properties.length ? properties.map(([name]) => name) : ["x"])),
      )
      .map(([depth, asField, field]) => {
        const nested = "[".repeat(depth) + "]".repeat(depth);
        return withBody(`nested ${depth} deep`, asField ? `{"${field}": ${nested}}` : nested);
      }),
  );
  // A NUL or a lone surrogate in any string field (or the name of one).
  if (strings.length > 0) {
    cases.push(
      fc
        .tuple(fc.constantFrom(...strings), fc.constantFrom("\u0000", "\ud800", "\udc00", "a\udbff"))
        .map(([[name], odd]) => object(`unstorable ${name}`, { ...example, [name]: `x${odd}` })),
    );
  }
  cases.push(
    fc
      .constantFrom("\u0000", "\ud800x")
      .map((odd) => object("unstorable field name", { ...example, [`f${odd}`]: "x" })),
  );
  // Required fields missing.
  for (const name of schema.required ?? []) {
    cases.push(
      fc.constant(
        object(`missing ${name}`, Object.fromEntries(Object.entries(example).filter(([key]) => key !== name))),
      ),
    );
  }
  // Wrong types.
  for (const [name, property] of properties) {
    cases.push(wrongTypeFor(property).map((value) => object(`wrong type ${name}`, { ...example, [name]: value })));
  }
  // Unknown fields (the contract's request bodies forbid them).
  if (schema.additionalProperties === false) {
    const known = new Set(Object.keys(schema.properties ?? {}));
    cases.push(
      fc
        .tuple(
          fc.oneof(
            anyString,
            fc.constantFrom(
              "__proto__",
              "constructor",
              "prototype",
              "id",
              "workspace_id",
              "created_at",
              "status",
              "Name",
              "name ",
            ),
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .filter(([name]) => !known.has(name) && !name.includes("\u0000") && name.isWellFormed())
        .map(([name, value]) =>
          withBody(
            "unknown field",
            `${text.slice(0, -1)}${text.length > 2 ? "," : ""}${jsonOf(name)}:${jsonOf(value) ?? "null"}}`,
          ),
        ),
    );
  }
  // Strings too long, empty where they may not be, and enums or patterns with odd characters.
  for (const [name, property] of strings) {
    if (property.maxLength !== undefined) {
      const limit = property.maxLength;
      cases.push(
        fc
          .tuple(
            fc.integer({ min: 1, max: 30_000 }),
            fc.constantFrom("a", "\u00e9", "\u202e", "\u0301", "\u4e00", "\u200b", " "),
          )
          .map(([extra, char]) => object(`${name} too long`, { ...example, [name]: char.repeat(limit + extra) })),
      );
    }
    if (refusesEmpty(property)) cases.push(fc.constant(object(`${name} empty`, { ...example, [name]: "" })));
    // A URL with an odd character may still be a valid URL elsewhere (webhooks: see webhookTargets).
    const urlElsewhere = property.format === "uri" && (operation.operationId.includes("Webhook") || operation.oauth);
    if ((property.enum || property.pattern || property.format) && !urlElsewhere) {
      const valid = (value: string) =>
        (!property.enum || property.enum.includes(value)) &&
        (!property.pattern || new RegExp(property.pattern, "u").test(value)) &&
        (property.format !== "uri" || URL.canParse(value));
      const base =
        typeof example[name] === "string" ? example[name] : String(property.enum?.[0] ?? "https://example.com/");
      cases.push(
        fc
          .tuple(
            fc.constantFrom(...oddCharacters.filter((c) => c !== "\u0000" && c.isWellFormed()), " ", "\t"),
            fc.nat({ max: base.length }),
          )
          .map(([odd, at]) => base.slice(0, at) + odd + base.slice(at))
          .filter((value) => !valid(value))
          .map((value) => object(`${name} odd`, { ...example, [name]: value })),
      );
      if (property.enum)
        cases.push(
          fc.constant(object(`${name} upper case`, { ...example, [name]: String(property.enum[0]).toUpperCase() })),
        );
    }
  }
  // Arrays past their bounds, and items of the wrong kind.
  for (const [name, property] of properties.filter(([, p]) => p.type === "array")) {
    if (property.minItems) cases.push(fc.constant(object(`${name} empty array`, { ...example, [name]: [] })));
    if (property.maxItems !== undefined) {
      cases.push(
        fc
          .integer({ min: property.maxItems + 1, max: property.maxItems + 500 })
          .map((length) => object(`${name} too many`, { ...example, [name]: Array(length).fill("*") })),
      );
    }
    cases.push(
      notMatching({ enum: ["*"] }).map((item) => object(`${name} odd item`, { ...example, [name]: ["*", item] })),
    );
  }
  return fc.oneof(...cases);
}

function mediaTypes(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  // Media types the operation does not accept (none at all: undefined), and encodings it never reads.
  const refused = [
    undefined,
    "text/plain",
    "application/xml",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "json",
    "application/jsonp",
    "application/json-seq",
    "application/problem+json",
    "text/json",
    "*/*",
    "",
  ].filter((type) => !operation.body!.mediaTypes.includes(type ?? ""));
  const withType = fc.constantFrom(...refused).map((type): HostileCase => {
    const request = baseline(operation, fixture, "");
    const { "Content-Type": _, ...headers } = request.headers;
    return {
      ...request,
      kind: `Content-Type ${type}`,
      headers: type === undefined ? headers : { ...headers, "Content-Type": type },
    };
  });
  const withEncoding = fc
    .constantFrom("gzip", "br", "deflate", "compress", "identity, gzip")
    .map((encoding): HostileCase => {
      const request = baseline(operation, fixture, "");
      return {
        ...request,
        kind: `Content-Encoding ${encoding}`,
        headers: { ...request.headers, "Content-Encoding": encoding },
      };
    });
  return fc.oneof(withType, withEncoding);
}

function oversized(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  // Mostly declared (the pipeline refuses on the header, before reading); now and then sent whole.
  // The OAuth endpoints read their small bodies without looking at the declared length first: a
  // declared length never sent keeps them waiting for the rest, as HTTP allows.
  const declared = operation.oauth
    ? fc.constant(0)
    : fc.oneof(
        { arbitrary: fc.integer({ min: 1024 * 1024 + 1, max: 2 ** 31 }), weight: 9 },
        { arbitrary: fc.constant(0), weight: 1 },
      );
  return declared.map((declared): HostileCase => {
    const request = baseline(operation, fixture, "");
    if (declared > 0)
      return {
        ...request,
        kind: "oversized (declared)",
        headers: { ...request.headers, "Content-Length": String(declared) },
        body: request.body,
      };
    return { ...request, kind: "oversized (sent)", body: `{"name":"big","prompt":"${"p".repeat(1024 * 1024 + 10)}"}` };
  });
}

/** Webhook URLs deliveries may not go to: private, loopback, link-local, reserved, not https, with credentials, not URLs. */
export const refusedWebhookUrls = [
  "https://127.0.0.1/hook",
  "https://127.1/hook",
  "https://2130706433/hook",
  "https://0x7f000001/hook",
  "https://017700000001/hook",
  "https://0.0.0.0/hook",
  "https://10.0.0.1/hook",
  "https://10.255.255.255:8443/hook",
  "https://172.16.0.1/hook",
  "https://172.31.255.254/hook",
  "https://192.168.1.1/hook",
  "https://169.254.169.254/latest/meta-data/",
  "https://100.64.0.1/hook",
  "https://198.18.0.1/hook",
  "https://224.0.0.1/hook",
  "https://255.255.255.255/hook",
  "https://[::1]/hook",
  "https://[::]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[::ffff:10.0.0.1]/hook",
  "https://[64:ff9b::a00:1]/hook",
  "https://[2002:7f00:1::1]/hook",
  "https://[::127.0.0.1]/hook",
  "https://[2002:a9fe:a9fe::1]/hook",
  "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook",
  "https://[fd00::1]/hook",
  "https://[fe80::1]/hook",
  "https://[ff02::1]/hook",
  "https://localhost/hook",
  "https://localhost./hook",
  "https://internal.hostile.test/hook",
  "https://rebind.hostile.test/hook",
  "https://metadata.hostile.test/hook",
  "http://public.hostile.test/hook",
  "https://user:secret@public.hostile.test/hook",
  "https://:secret@public.hostile.test/hook",
  "ftp://public.hostile.test/hook",
  "https:/public.hostile.test",
  "https://",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "gopher://127.0.0.1:6379/_FLUSHALL",
  "not a url",
  `https://public.hostile.test/${"a".repeat(2100)}`,
];

/** What the suite's resolver answers for the names above (no name reaches a real DNS server). */
export const hostileNames: Readonly<Record<string, string[]>> = {
  localhost: ["127.0.0.1", "::1"],
  "internal.hostile.test": ["10.1.2.3"],
  "rebind.hostile.test": ["93.184.216.35", "192.168.0.10"],
  "metadata.hostile.test": ["169.254.169.254"],
  "public.hostile.test": ["93.184.216.34"],
};

export function webhookTargets(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  return fc.constantFrom(...refusedWebhookUrls).map((url): HostileCase => {
    const request = baseline(operation, fixture, "");
    const example = (operation.body!.example ?? {}) as Record<string, unknown>;
    return { ...request, kind: `webhook url ${url.slice(0, 60)}`, body: jsonOf({ ...example, url }) };
  });
}

// ---------------------------------------------------------------------------------------------
// Uploads (multipart)

interface Part {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly value: string;
}

function multipart(
  parts: readonly Part[],
  boundary = "hostileBoundary7MA4YWxk",
): { body: Buffer; contentType: string } {
  const chunks = parts.map((part) => {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : "";
    return `--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${part.value}\r\n`;
  });
  return {
    body: Buffer.from(`${chunks.join("")}--${boundary}--\r\n`, "utf8"),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Upload paths the contract refuses: traversal, absolute, empty or dot segments, backslashes, odd characters, too long. */
export const refusedFilePaths = [
  "../escape.txt",
  "../../../../etc/passwd",
  "a/../../b.txt",
  "a/./b.txt",
  "./a.txt",
  "/etc/passwd",
  "a//b.txt",
  "a/",
  ".",
  "..",
  "...//x",
  "a\\..\\b.txt",
  "C:\\Windows\\win.ini",
  "~pending/file_12345678",
  "a b.txt",
  "\u202etxt.exe",
  "caf\u00e9.txt",
  "a\u0000.txt",
  "%2e%2e/x",
  "a".repeat(513),
  "",
];

function uploads(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const pathPattern = new RegExp(
    resolve((document.components as { schemas: Record<string, Schema> }).schemas.ProjectFilePath).pattern!,
    "u",
  );
  const file = (filename = "note.txt"): Part => ({ name: "file", filename, contentType: "text/plain", value: "hello" });
  const request = (
    kind: string,
    parts: readonly Part[],
    options: { path?: string; boundary?: string; contentType?: string; cut?: number; declared?: number } = {},
  ): HostileCase => {
    const base = baseline(operation, fixture, kind);
    const { body, contentType } = multipart(parts, options.boundary);
    const headers: Record<string, string> = { ...base.headers, "Content-Type": options.contentType ?? contentType };
    if (options.declared) headers["Content-Length"] = String(options.declared);
    return {
      ...base,
      kind,
      headers,
      body: options.cut === undefined ? body : body.subarray(0, options.cut),
      path: options.path ?? base.path,
    };
  };
  const projectPath = (projectId: string) =>
    fillTemplate(operation.template, { ...fixture.ids, project_id: projectId });
  return fc.oneof(
    fc
      .oneof(
        fc.constantFrom(...refusedFilePaths),
        anyString.filter((value) => !pathPattern.test(value)),
      )
      .chain((path) =>
        fc
          .boolean()
          .map((before) =>
            request(
              `upload path ${JSON.stringify(path.slice(0, 40))}`,
              before ? [{ name: "path", value: path }, file()] : [file(), { name: "path", value: path }],
            ),
          ),
      ),
    // Names with nothing left once sanitised (a name with odd characters becomes `_`, a valid path).
    fc
      .constantFrom("..", ".", "/", "../", "..\\", "\u0301", "a/..", "\u0301\u0308")
      .map((filename) => request(`upload filename ${JSON.stringify(filename)} without a path`, [file(filename)])),
    fc.constant(request("upload without a file part", [{ name: "path", value: "x.txt" }])),
    fc.constant(
      request("upload with the file as a field", [
        { name: "path", value: "x.txt" },
        { name: "file", value: "hello" },
      ]),
    ),
    fc.constant(request("upload with two files", [{ name: "path", value: "x.txt" }, file(), file()])),
    fc.constant(
      request("upload with two paths", [{ name: "path", value: "x.txt" }, { name: "path", value: "y.txt" }, file()]),
    ),
    // (A name the quoted Content-Disposition cannot carry — a quote, a backslash, a line break —
    // would make the part unreadable, and busboy skips unreadable parts.)
    anyString
      .filter(
        (name) =>
          name !== "file" &&
          name !== "path" &&
          !/["\\\r\n]/.test(name) &&
          name.isWellFormed() &&
          !name.includes("\u0000"),
      )
      .map((name) => request("upload with an unknown part", [{ name, value: "v" }, file()])),
    fc.constant(request("upload to a taken path", [{ name: "path", value: fixture.takenPath }, file()])),
    fc.constant(
      request("upload to a project that does not exist", [{ name: "path", value: "x.txt" }, file()], {
        path: projectPath("prj_doesNotExist1234"),
      }),
    ),
    fc.constant(
      request("upload to another workspace's project", [{ name: "path", value: "x.txt" }, file()], {
        path: projectPath(fixture.otherProjectId),
      }),
    ),
    fc
      .constantFrom(
        "multipart/form-data",
        "multipart/form-data; boundary=",
        "multipart/form-data; boundary=other",
        "multipart/mixed; boundary=hostileBoundary7MA4YWxk",
      )
      .map((contentType) =>
        request(`upload Content-Type ${contentType}`, [{ name: "path", value: "x.txt" }, file()], { contentType }),
      ),
    fc
      .integer({ min: 1, max: 150 })
      .map((cut) => request("upload body cut short", [{ name: "path", value: "x.txt" }, file()], { cut })),
    fc
      .integer({ min: 25 * 1024 * 1024 + 64 * 1024 + 1, max: 2 ** 31 })
      .map((declared) =>
        request("upload declared over 25 MiB", [{ name: "path", value: "x.txt" }, file()], { declared }),
      ),
  );
}

// ---------------------------------------------------------------------------------------------
// Methods and routes

function wrongMethod(fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const templates = [
    ...new Set(contractOperations.filter((operation) => !operation.oauth).map((operation) => operation.template)),
  ];
  return fc
    .tuple(fc.constantFrom(...templates), fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
    .filter(
      ([template, method]) =>
        !contractOperations.some((operation) => operation.template === template && operation.method === method),
    )
    .map(([template, method]) => ({
      kind: `method ${method}`,
      operationId: undefined,
      method,
      path: fillTemplate(template, fixture.ids),
      headers: { Authorization: `Bearer ${fixture.key}`, "Content-Type": "application/json" },
      body: method === "GET" || method === "OPTIONS" ? undefined : "{}",
      accepts: "4xx",
    }));
}

/** Paths served outside the contract (probes, console, OAuth): not for the unknown-route generator. */
/** What the server answers outside the contract: the probes, the pages, MCP and the front door. */
const servedOutside = /^\/(healthz|readyz|settings|oauth|\.well-known|mcp|docs|openapi\.(json|yaml))(\/|$)|^\/$/;
/** Every route of the contract, as the server's router reads it (a parameter is one non-empty segment). */
const routes = [...new Set(contractOperations.map((operation) => operation.template))].map(
  (template) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{\w+\\?\}/g, "[^/]+")}$`),
);

function unknownRoute(fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const segment = fc.oneof(
    fc.constantFrom(
      "projectz",
      "v2",
      "admin",
      "internal",
      ".env",
      "..%2f",
      "%00",
      "files",
      "content",
      "%ED%A0%80",
      "%FF",
    ),
    anyString.map(encode),
  );
  return fc
    .oneof(
      fc
        .tuple(
          fc.constantFrom(
            "/v1/",
            `/v1/projects/${fixture.ids.project_id}/`,
            "/",
            "/v2/",
            `/v1/webhooks/${fixture.ids.webhook_endpoint_id}/deliveries/x/`,
          ),
          segment,
        )
        .map(([prefix, tail]) => prefix + tail),
      fc.constantFrom(
        "/v1/../../etc/passwd",
        "/v1/projects/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/../../../../etc/passwd",
        "/v1",
        "/v1/projects/x/y/z/w/v/u",
        "/V1/projects",
        "/v1/Projects",
        "/v1;/projects",
        "/v1/projects;x=1",
      ),
    )
    .filter((path) => {
      try {
        let pathname = new URL(`http://h${path}`).pathname;
        while (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1);
        return !servedOutside.test(pathname) && !routes.some((route) => route.test(pathname));
      } catch {
        return false;
      }
    })
    .map((path) => ({
      kind: "unknown route",
      operationId: undefined,
      method: "GET",
      path,
      headers: { Authorization: `Bearer ${fixture.key}` },
      accepts: "4xx" as const,
    }));
}

/**
 * Pages a tenant may upload whose naive scanning grows with the square of their size: on the API's
 * event loop, 400 KB of unclosed comments would hold it for seconds in a deployment's build, and
 * 180 KB of unclosed tags in the built-in agent's run.
 */
export const hostilePages: readonly (readonly [name: string, page: string])[] = [
  ["100,000 unclosed comments", "<!--".repeat(100_000)],
  ["60,000 unclosed tags", "<a ".repeat(60_000)],
];
