// Renders generated/mcp-tools.ts: the MCP server's tools (src/mcp/), one per operation of the `/v1`
// pipeline, from the OpenAPI 3.1 document, whose schemas are JSON Schema 2020-12 (3.0's `nullable`
// is not). Each tool is named by its operationId and described by the operation's summary,
// description and scopes. Its input schema is an object of the operation's path and query
// parameters, plus `body` for its request body as the API takes it (not flattened: no name can
// collide, and it reads like the API), plus `idempotency_key` where the operation takes an
// Idempotency-Key. Its output schema is the operation's 2xx JSON answer, or the API's error object
// (what a failed call carries, with `isError`). Every component schema a tool's schemas name is
// bundled into their `$defs`, so each schema stands alone.
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

/** A file part of a multipart body, as a tool takes it. */
const filePart = (description: string | undefined): Schema => ({
  type: "object",
  description: `${description ? `${description} ` : ""}Give its content as \`text\` (UTF-8) or as \`content_base64\`, one of the two.`,
  properties: {
    text: { type: "string", description: "The content, as UTF-8 text." },
    content_base64: {
      type: "string",
      contentEncoding: "base64",
      description: "The content, base64-encoded (for binary files).",
    },
    filename: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      description: "The part's filename (default: the last segment of `path`, or `file`).",
    },
    content_type: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      description: "The part's media type (default: application/octet-stream).",
    },
  },
  oneOf: [{ required: ["text"] }, { required: ["content_base64"] }],
  additionalProperties: false,
});

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

export function renderMcpTools(openapi31Yaml: string): string {
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

  const tools: string[] = [];
  const leftOut: Record<string, string> = {};
  for (const [path, item] of Object.entries(document.paths)) {
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
              ...parameter.schema,
              description:
                "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again).",
            },
            false,
          );
        }
      }
      if (op.requestBody) {
        const [mediaType] = Object.keys(op.requestBody.content);
        const schema = op.requestBody.content[mediaType!]!.schema ?? {};
        if (mediaType === "application/json") {
          add(
            "body",
            { ...schema, description: "The request body, as the API takes it (JSON)." },
            op.requestBody.required ?? false,
          );
          call.body = "json";
        } else if (mediaType === "multipart/form-data") {
          const parts = resolveSchema(schema);
          const partSchemas = (parts.properties ?? {}) as Record<string, Schema>;
          call.files = Object.keys(partSchemas).filter((name) => isFilePart(partSchemas[name]!));
          add(
            "body",
            {
              type: "object",
              description: "The request's multipart parts, by name; the server makes the multipart body of them.",
              properties: Object.fromEntries(
                Object.entries(partSchemas).map(([name, part]) => [
                  name,
                  call.files!.includes(name) ? filePart(part.description as string | undefined) : part,
                ]),
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

      const jsonAnswers = [
        ...new Set(
          answers.flatMap(([, response]) =>
            response.content?.["application/json"]?.schema
              ? [JSON.stringify(response.content["application/json"].schema)]
              : [],
          ),
        ),
      ];
      if (jsonAnswers.length > 0) call.answer = "json";
      else if (answerTypes.size > 0) call.answer = "binary";
      const errorSchema = Object.entries(op.responses).find(
        ([status]) => !status.startsWith("2") && op.responses[status]!.content?.["application/json"],
      )?.[1].content!["application/json"]!.schema;
      const inputSchema: Schema = {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      };
      const outputSchema: Schema | undefined =
        call.answer === "json"
          ? {
              type: "object",
              anyOf: [...jsonAnswers.map((text) => JSON.parse(text) as Schema), ...(errorSchema ? [errorSchema] : [])],
            }
          : undefined;

      const scopes = op["x-required-scopes"] ?? [];
      const httpOnly = parameters
        .filter((parameter) => parameter.in === "header" && parameter.name !== "Idempotency-Key")
        .map((parameter) => `\`${parameter.name}\``);
      const description = [
        `${op.summary ?? id}.`,
        op.description,
        call.answer === "binary"
          ? "As a tool, it answers the whole file as an embedded resource: UTF-8 text, or a base64 blob."
          : undefined,
        httpOnly.length ? `The headers ${httpOnly.join(", ")} are not tool inputs: they are for HTTP.` : undefined,
        `Requires ${scopes.length ? `the scope${scopes.length > 1 ? "s" : ""} ${scopes.join(", ")}` : "any valid key"}. (${method.toUpperCase()} ${path})`,
      ]
        .filter(Boolean)
        .join("\n\n");
      const tool = {
        name: id,
        title: op.summary ?? id,
        description,
        inputSchema: bundled(inputSchema, schemas),
        ...(outputSchema ? { outputSchema: bundled(outputSchema, schemas) } : {}),
        annotations:
          method === "get"
            ? { readOnlyHint: true }
            : {
                readOnlyHint: false,
                destructiveHint: method === "delete",
                idempotentHint: method === "delete" || method === "patch" || method === "put",
              },
      };
      tools.push(`  {\n    tool: ${indent(JSON.stringify(tool, null, 2))},\n    call: ${JSON.stringify(call)},\n  },`);
    }
  }

  return `// Generated from openapi.3.1.yaml by scripts/generate.ts (scripts/mcp-tools-template.ts says how). Do not edit: change spec/ and run \`npm run build\`.
import type { McpTool, McpToolCall } from "../src/mcp/tool-types.ts";

/** The contract's version, which the server reports as its own in \`initialize\`. */
export const contractVersion = ${JSON.stringify(document.info.version)};

/** Operations of the \`/v1\` pipeline that are not tools, and why. */
export const notTools: Readonly<Record<string, string>> = ${JSON.stringify(leftOut)};

export const mcpTools: readonly { readonly tool: McpTool; readonly call: McpToolCall }[] = [
${tools.join("\n")}
];
`;
}

/** The schema with every component schema it names, transitively, in its \`$defs\`, and its references pointing there. */
function bundled(schema: Schema, components: Record<string, Schema>): Schema {
  const defs: Record<string, unknown> = {};
  const pending: string[] = [];
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (key === "$ref" && typeof item === "string" && item.startsWith(SCHEMA_REF)) {
          const name = item.slice(SCHEMA_REF.length);
          if (!(name in defs)) {
            defs[name] = null;
            pending.push(name);
          }
          return [key, `#/$defs/${name}`];
        }
        // Examples are documentation for people, and the largest part of some schemas: a tool
        // list is read by models, on every connection.
        return [key, key === "examples" ? undefined : rewrite(item)];
      }),
    );
  };
  const root = rewrite(schema) as Schema;
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const component = components[name];
    if (!component) throw new Error(`unresolved schema ${name}`);
    defs[name] = rewrite(component);
  }
  const names = Object.keys(defs).sort();
  return names.length ? { ...root, $defs: Object.fromEntries(names.map((name) => [name, defs[name]])) } : root;
}

function indent(text: string): string {
  return text.replace(/\n/g, "\n    ");
}
