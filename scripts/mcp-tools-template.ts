// Renders generated/mcp-tools.ts: the MCP server's tools (src/mcp/), one per operation of the `/v1`
// pipeline, from the OpenAPI 3.1 document, whose schemas are JSON Schema 2020-12 (3.0's `nullable`
// is not). A tool list is read by a model on every connection, so each tool is the least that lets
// a model call it well; the rest is the reference's (GET /docs):
//   - named by its operationId, titled by its summary, described by the first sentence or two of
//     the operation's description;
//   - an input schema of the operation's path and query parameters, plus `body` for its request
//     body as the API takes it (not flattened: no name can collide, and it reads like the API),
//     plus `idempotency_key` where the operation takes an Idempotency-Key. The component schemas it
//     names are written in place, or once in its `$defs` when it names a large one more than once;
//     long patterns, examples and all but the first sentence of each description are left out
//     (the pipeline validates every call against the contract, and its refusal names the field);
//   - no output schema: the answer is the operation's, as the reference gives it (docs/mcp.md);
//   - annotations from the method: GET reads; PUT, PATCH and DELETE remove or overwrite, and
//     repeating one changes nothing more; a POST adds, and repeating it adds again.
//
// Uploads and downloads: a multipart body is given as an object of its parts, a file part as
// `{text | content_base64, filename?, content_type?}`, which the server hands to the operation as
// its parts; a binary answer comes back as an embedded resource (text, or a base64 blob) with the
// file's media type, and its name in the resource's `_meta`. Left out: header parameters other
// than Idempotency-Key (a download's Range and conditions: a tool reads the whole file), and
// operations whose answer is a stream of events (no tool result can carry one).
import { parse } from "yaml";
import { servedByPipeline } from "./handlers-template.ts";

const methods = ["get", "put", "post", "patch", "delete"] as const;

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema: Schema;
}

interface Content {
  [mediaType: string]: { schema?: Schema };
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: { required?: boolean; description?: string; content: Content };
  responses: Record<string, { content?: Content }>;
  "x-required-scopes"?: string[];
  "x-served-by"?: string;
}

interface Document {
  info: { version: string };
  paths: Record<string, Partial<Record<(typeof methods)[number], Operation>>>;
  components: { schemas: Record<string, Schema>; parameters?: Record<string, Parameter> };
}

/** What src/mcp/ needs to turn a tool's arguments into the operation's request, and its answer into a result. */
interface ToolCall {
  path: string[];
  query: string[];
  body?: "json" | "multipart";
  /** A multipart body's file parts. */
  files?: string[];
  answer: "json" | "binary" | "none";
}

const SCHEMA_REF = "#/components/schemas/";

/** The keywords a tool's input schema keeps: its shape, bounds and defaults, and a short description. */
const KEPT_KEYWORDS = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "default",
  "format",
  "pattern",
  "deprecated",
  "description",
]);

/** Patterns longer than this are left out: an identifier's prefix says much in few bytes, a path's grammar little in many. */
const PATTERN_BYTES = 40;

/** Formats that tell a model nothing its `type` does not. */
const SILENT_FORMATS = new Set(["int32", "int64", "float", "double"]);

/** A component schema written once in `$defs` rather than at each use: when it is used twice or more and is at least this long. */
const SHARED_SCHEMA_BYTES = 100;

/** The most of a file a tool call carries each way: src/mcp/tool-calls.ts's MCP_FILE_LIMIT, in words. */
const FILE_LIMIT = "1 MiB";

/** A file part of a multipart body, as a tool takes it (the part's own description is of its HTTP framing). */
const filePart: Schema = {
  type: "object",
  description: `The file, up to ${FILE_LIMIT}: its content as \`text\` (UTF-8) or \`content_base64\`.`,
  properties: {
    text: { type: "string" },
    content_base64: { type: "string" },
    filename: { type: "string", description: "Default: the last segment of `path`." },
    content_type: { type: "string", description: "Default: application/octet-stream." },
  },
  oneOf: [{ required: ["text"] }, { required: ["content_base64"] }],
  additionalProperties: false,
};

/** A multipart part that carries a file: one with no type of its own, or a binary string. */
function isFilePart(schema: Schema): boolean {
  return (
    (schema.type === undefined &&
      schema.$ref === undefined &&
      schema.allOf === undefined &&
      schema.anyOf === undefined) ||
    schema.format === "binary" ||
    "contentMediaType" in schema
  );
}

/** The tools of an OpenAPI 3.1 document, each with how its call becomes a request, and the operations that are not tools. */
export function mcpToolsOf(openapi31Yaml: string): {
  version: string;
  tools: { tool: Schema & { name: string }; call: ToolCall }[];
  notTools: Record<string, string>;
} {
  const document = parse(openapi31Yaml) as Document;
  const schemas = document.components.schemas;
  const resolveParameter = (parameter: unknown): Parameter => {
    const ref = (parameter as { $ref?: string }).$ref;
    if (!ref) return parameter as Parameter;
    const resolved = document.components.parameters?.[decodeURIComponent(ref.replace("#/components/parameters/", ""))];
    if (!resolved) throw new Error(`unresolved parameter ${ref}`);
    return resolved;
  };
  const resolveSchema = (schema: Schema): Schema =>
    typeof schema.$ref === "string" ? resolveSchema(schemas[schema.$ref.slice(SCHEMA_REF.length)]!) : schema;

  const tools: { tool: Schema & { name: string }; call: ToolCall }[] = [];
  const leftOut: Record<string, string> = {};
  for (const item of Object.values(document.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op || !servedByPipeline(op)) continue;
      const id = op.operationId;
      const answers = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      const answerTypes = new Set(answers.flatMap(([, response]) => Object.keys(response.content ?? {})));
      if (answerTypes.has("text/event-stream")) {
        leftOut[id] = "Its answer is a stream of events, which no tool result can carry: follow it over HTTP.";
        continue;
      }
      const parameters = (op.parameters ?? []).map(resolveParameter);
      const properties: Record<string, Schema> = {};
      const required: string[] = [];
      const call: ToolCall = { path: [], query: [], answer: "none" };
      const add = (name: string, schema: Schema, isRequired: boolean) => {
        if (name in properties) throw new Error(`${id}: two inputs are named ${name}`);
        properties[name] = schema;
        if (isRequired) required.push(name);
      };
      for (const parameter of parameters) {
        const described = {
          ...parameter.schema,
          ...(parameter.description ? { description: parameter.description } : {}),
        };
        if (parameter.in === "path") {
          add(parameter.name, described, true);
          call.path.push(parameter.name);
        } else if (parameter.in === "query") {
          add(parameter.name, described, parameter.required ?? false);
          call.query.push(parameter.name);
        } else if (parameter.in === "header" && parameter.name === "Idempotency-Key") {
          add(
            "idempotency_key",
            {
              type: "string",
              description: "The same key within 24 hours replays the first answer; without one, each call runs anew.",
            },
            false,
          );
        }
      }
      if (op.requestBody) {
        const [mediaType] = Object.keys(op.requestBody.content);
        const schema = op.requestBody.content[mediaType!]!.schema ?? {};
        if (mediaType === "application/json") {
          add("body", schema, op.requestBody.required ?? false);
          call.body = "json";
        } else if (mediaType === "multipart/form-data") {
          const parts = resolveSchema(schema);
          const partSchemas = (parts.properties ?? {}) as Record<string, Schema>;
          call.files = Object.keys(partSchemas).filter((name) => isFilePart(partSchemas[name]!));
          add(
            "body",
            {
              type: "object",
              description: "The multipart body's parts, by name.",
              properties: Object.fromEntries(
                Object.entries(partSchemas).map(([name, part]) => [name, call.files!.includes(name) ? filePart : part]),
              ),
              ...(parts.required ? { required: parts.required } : {}),
              additionalProperties: false,
            },
            op.requestBody.required ?? false,
          );
          call.body = "multipart";
        } else {
          throw new Error(`${id}: no tool input for a ${mediaType} body`);
        }
      }

      const jsonAnswer = answers.some(([, response]) => response.content?.["application/json"]?.schema);
      if (jsonAnswer) call.answer = "json";
      else if (answerTypes.size > 0) call.answer = "binary";
      const inputSchema: Schema = {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      };

      const summary = op.summary ?? id;
      // A file goes through MCP whole, whatever the operation's HTTP framing: its description, not the operation's.
      const description =
        call.answer === "binary"
          ? `${summary}: the whole file as an embedded resource, UTF-8 text or a base64 blob (up to ${FILE_LIMIT}; larger files over HTTP).`
          : call.body === "multipart"
            ? `${summary}: \`body\` holds the parts, a file as \`{text}\` or \`{content_base64}\` (up to ${FILE_LIMIT}; larger files over HTTP).`
            : firstSentences(op.description ?? `${summary}.`);
      const tool = {
        name: id,
        title: summary,
        description,
        inputSchema: compacted(inputSchema, schemas),
        annotations:
          method === "get"
            ? { readOnlyHint: true }
            : method === "post"
              ? { readOnlyHint: false, destructiveHint: false }
              : { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      };
      tools.push({ tool, call });
    }
  }
  return { version: document.info.version, tools, notTools: leftOut };
}

export function renderMcpTools(openapi31Yaml: string): string {
  const { version, tools, notTools } = mcpToolsOf(openapi31Yaml);
  const written = tools.map(
    ({ tool, call }) =>
      `  {\n    tool: ${indent(JSON.stringify(tool, null, 2))},\n    call: ${JSON.stringify(call)},\n  },`,
  );
  return `// Generated from openapi.3.1.yaml by scripts/generate.ts (scripts/mcp-tools-template.ts says how). Do not edit: change spec/ and run \`npm run build\`.
import type { McpTool, McpToolCall } from "../src/mcp/tool-types.ts";

/** The contract's version, which the server reports as its own in \`initialize\`. */
export const contractVersion = ${JSON.stringify(version)};

/** Operations of the \`/v1\` pipeline that are not tools, and why. */
export const notTools: Readonly<Record<string, string>> = ${JSON.stringify(notTools)};

export const mcpTools: readonly { readonly tool: McpTool; readonly call: McpToolCall }[] = [
${written.join("\n")}
];
`;
}

/**
 * The first sentence of a description's first paragraph, and the second too when both are short:
 * on one line, without the paragraphs, lists and asides that follow.
 */
export function firstSentences(text: string): string {
  const paragraph = text
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, " ");
  const sentences = paragraph.split(/(?<=[.!?])\s+(?=[A-Z`(])/);
  let kept = sentences[0]!;
  if (sentences.length > 1 && kept.length + 1 + sentences[1]!.length <= 160) kept += ` ${sentences[1]}`;
  return kept;
}

/**
 * The input schema in its compact form (KEPT_KEYWORDS, first sentences), standing alone: each
 * component schema it names written in place, or in its `$defs` when it is used more than once and
 * long enough for a reference to be shorter (SHARED_SCHEMA_BYTES), or when it names itself.
 */
function compacted(schema: Schema, components: Record<string, Schema>): Schema {
  const componentOf = (ref: unknown): string | undefined =>
    typeof ref === "string" && ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : undefined;

  // Uses of each component, counted as if every one were written in place (a component inside
  // another counts once per use of the outer one).
  const uses = new Map<string, number>();
  const count = (value: unknown, within: readonly string[]): void => {
    if (Array.isArray(value)) return value.forEach((item) => count(item, within));
    if (value === null || typeof value !== "object") return;
    for (const [key, item] of Object.entries(value)) {
      const name = key === "$ref" ? componentOf(item) : undefined;
      if (name === undefined) {
        count(item, within);
        continue;
      }
      uses.set(name, (uses.get(name) ?? 0) + 1);
      if (!within.includes(name)) count(components[name], [...within, name]);
    }
  };
  count(schema, []);

  const defs: Record<string, Schema> = {};
  const compact = (value: Schema, within: readonly string[]): Schema => {
    // `allOf` of one schema, as TypeSpec writes a reference that carries a description of its own.
    if (Array.isArray(value.allOf) && value.allOf.length === 1 && typeof value.allOf[0] === "object") {
      const { allOf, ...rest } = value;
      return compact({ ...(allOf as Schema[])[0], ...rest }, within);
    }
    const name = componentOf(value.$ref);
    if (name !== undefined) {
      const component = components[name];
      if (!component) throw new Error(`unresolved schema ${name}`);
      const { $ref, ...siblings } = value;
      const own = compact(siblings, within);
      if (within.includes(name)) {
        // A component that names itself cannot be written out in place.
        define(name);
        return { $ref: `#/$defs/${name}`, ...own };
      }
      if (shared(name, within)) return { $ref: `#/$defs/${name}`, ...own };
      const inPlace = compact(component, [...within, name]);
      // The use's own description says more of it than the component's does.
      if (own.description !== undefined) delete inPlace.description;
      return { ...inPlace, ...own };
    }
    const result: Schema = {};
    for (const [key, item] of Object.entries(value)) {
      if (!KEPT_KEYWORDS.has(key)) continue;
      if (key === "format" && SILENT_FORMATS.has(item as string)) continue;
      if (key === "pattern" && (item as string).length > PATTERN_BYTES) continue;
      if (key === "description") result[key] = firstSentences(item as string);
      else if (key === "properties")
        result[key] = Object.fromEntries(
          Object.entries(item as Record<string, Schema>).map(([property, sub]) => [property, compact(sub, within)]),
        );
      else if (key === "items" || (key === "additionalProperties" && typeof item === "object"))
        result[key] = compact(item as Schema, within);
      else if (key === "anyOf" || key === "oneOf" || key === "allOf")
        result[key] = (item as Schema[]).map((sub) => compact(sub, within));
      else result[key] = item;
    }
    return nullableType(result);
  };
  const define = (name: string): void => {
    if (name in defs) return;
    defs[name] = {}; // while it is written: its own references to itself find it defined
    defs[name] = compact(components[name]!, [name]);
  };
  /** Whether a use of `name` is a reference to its `$defs` entry (which it then has). */
  const shared = (name: string, within: readonly string[]): boolean => {
    if (name in defs) return true;
    if ((uses.get(name) ?? 0) < 2) return false;
    const written = compact(components[name]!, [...within, name]);
    if (name in defs) return true; // it named itself, and is defined now
    if (JSON.stringify(written).length < SHARED_SCHEMA_BYTES) return false;
    defs[name] = written;
    return true;
  };

  const root = compact(schema, []);
  const names = Object.keys(defs).sort();
  return names.length ? { ...root, $defs: Object.fromEntries(names.map((name) => [name, defs[name]])) } : root;
}

/** `anyOf: [{type: T, …}, {type: "null"}]` as `type: [T, "null"]`: the same values, said shorter. */
function nullableType(schema: Schema): Schema {
  const options = schema.anyOf as Schema[] | undefined;
  if (!options || options.length !== 2) return schema;
  const nullAt = options.findIndex((option) => option.type === "null" && Object.keys(option).length === 1);
  const other = options[1 - nullAt];
  if (nullAt < 0 || !other || typeof other.type !== "string" || "enum" in other || "const" in other) return schema;
  const { anyOf, ...rest } = schema;
  if (Object.keys(rest).some((key) => key in other)) return schema;
  return { ...other, type: [other.type, "null"], ...rest };
}

function indent(text: string): string {
  return text.replace(/\n/g, "\n    ");
}
