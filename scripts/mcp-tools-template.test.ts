// How the MCP tools are made compact, on a small document of its own: what a tool keeps of the
// contract's schemas and descriptions, when a component is written once in `$defs` rather than at
// each use, and the annotations each method gets. The tools of the real contract, as a client sees
// them: test/mcp.test.ts.
import { describe, expect, it } from "vitest";
import { firstSentences, mcpToolsOf } from "./mcp-tools-template.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const longEnum = Array.from({ length: 12 }, (_, i) => `kind.number_${i}`);

/** A document with one operation per method; JSON is YAML, which the template reads. */
const document = JSON.stringify({
  openapi: "3.1.0",
  info: { version: "1.2.3" },
  paths: {
    "/v1/things": {
      get: {
        operationId: "listThings",
        summary: "List things",
        description: "Lists the things, newest first. Each page holds `limit` of them.\n\nA second paragraph.",
        parameters: [
          {
            name: "limit",
            in: "query",
            description: "How many. At most 100.",
            schema: { type: "integer", format: "int32", minimum: 1, maximum: 100, default: 20 },
          },
          { name: "kind", in: "query", schema: ref("Kind") },
        ],
        responses: { "200": { content: { "application/json": { schema: ref("Thing") } } } },
      },
      post: {
        operationId: "createThing",
        summary: "Create a thing",
        parameters: [{ name: "Idempotency-Key", in: "header", schema: { type: "string", maxLength: 255 } }],
        requestBody: { required: true, content: { "application/json": { schema: ref("CreateThing") } } },
        responses: { "201": { content: { "application/json": { schema: ref("Thing") } } } },
      },
    },
    "/v1/things/{thing_id}": {
      patch: {
        operationId: "updateThing",
        parameters: [
          { name: "thing_id", in: "path", required: true, description: "The thing.", schema: ref("ThingId") },
        ],
        requestBody: { content: { "application/json": { schema: ref("Node") } } },
        responses: { "200": { content: { "application/json": { schema: ref("Thing") } } } },
      },
      put: {
        operationId: "replaceThing",
        parameters: [{ name: "thing_id", in: "path", required: true, schema: ref("ThingId") }],
        responses: { "204": {} },
      },
      delete: {
        operationId: "deleteThing",
        parameters: [{ name: "thing_id", in: "path", required: true, schema: ref("ThingId") }],
        responses: { "204": {} },
      },
    },
  },
  components: {
    schemas: {
      ThingId: {
        type: "string",
        pattern: "^thing_[0-9A-Za-z]{8,64}$",
        description: "A thing's id.",
        examples: ["thing_12345678"],
      },
      Kind: { type: "string", enum: longEnum, description: "The kind. New kinds may come." },
      Path: { type: "string", pattern: `^${"[a-z]+/".repeat(10)}$`, description: "A path." },
      CreateThing: {
        type: "object",
        required: ["kinds"],
        properties: {
          kinds: { type: "array", items: ref("Kind") },
          also: { allOf: [ref("Kind")], description: "Another kind, described here." },
          path: ref("Path"),
          note: { anyOf: [{ type: "string" }, { type: "null" }], maxLength: 10 },
          owner: ref("ThingId"),
          copy_of: ref("ThingId"),
        },
        additionalProperties: false,
      },
      Node: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: ref("Node") } },
      },
      Thing: { type: "object", properties: { id: ref("ThingId") } },
    },
  },
});

const tools = Object.fromEntries(mcpToolsOf(document).tools.map(({ tool }) => [tool.name, tool]));

describe("the MCP tools' template", () => {
  it("describes a tool by its summary and the first sentences of its description, on one line", () => {
    expect(tools.listThings).toMatchObject({
      title: "List things",
      description: "Lists the things, newest first. Each page holds `limit` of them.",
    });
    expect(tools.createThing!.description).toBe("Create a thing.");
    expect(firstSentences(`One thing.\nSaid over two lines. ${"X".repeat(200)}.\n\nMore.`)).toBe(
      "One thing. Said over two lines.",
    );
    expect(firstSentences(`${"A long first sentence ".repeat(8)}ends. A second.`)).toBe(
      `${"A long first sentence ".repeat(8)}ends.`,
    );
  });

  it("keeps a schema's shape, bounds, defaults and short patterns, and leaves out examples, long patterns and silent formats", () => {
    expect(tools.listThings!.inputSchema).toEqual({
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "How many. At most 100." },
        kind: { type: "string", enum: longEnum, description: "The kind. New kinds may come." },
      },
      additionalProperties: false,
    });
    const body = (tools.createThing!.inputSchema as { properties: { body: { properties: Record<string, unknown> } } })
      .properties.body;
    expect(body.properties.path).toEqual({ type: "string", description: "A path." });
    expect(body.properties.note).toEqual({ type: ["string", "null"], maxLength: 10 });
    // A use's own description stands for the component's.
    expect(body.properties.also).toEqual({ $ref: "#/$defs/Kind", description: "Another kind, described here." });
    expect(body.properties.owner).toEqual({
      type: "string",
      pattern: "^thing_[0-9A-Za-z]{8,64}$",
      description: "A thing's id.",
    });
  });

  it("writes a long component used twice once in $defs, a short one at each use, and one that names itself by reference", () => {
    const create = tools.createThing!.inputSchema as { $defs?: Record<string, unknown>; properties: object };
    expect(Object.keys(create.$defs ?? {})).toEqual(["Kind"]);
    expect(create.properties).toHaveProperty("body.properties.kinds.items", { $ref: "#/$defs/Kind" });
    expect(create.properties).toHaveProperty("body.properties.copy_of.type", "string");
    const update = tools.updateThing!.inputSchema as { $defs?: Record<string, unknown>; properties: object };
    expect(update.properties).toHaveProperty("body", { $ref: "#/$defs/Node" });
    expect(update.$defs).toHaveProperty("Node.properties.children.items", { $ref: "#/$defs/Node" });
    expect(JSON.stringify(tools)).not.toContain("#/components/");
  });

  it("annotates each tool from its method", () => {
    expect(Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, tool.annotations]))).toEqual({
      listThings: { readOnlyHint: true },
      createThing: { readOnlyHint: false, destructiveHint: false },
      updateThing: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      replaceThing: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      deleteThing: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    });
    expect(tools.createThing!.inputSchema).toHaveProperty("properties.idempotency_key.type", "string");
    expect(Object.values(tools).every((tool) => !("outputSchema" in tool))).toBe(true);
  });
});
