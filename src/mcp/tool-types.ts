// The shape of an MCP tool and of how its call becomes a request, which generated/mcp-tools.ts
// lists one per operation. Written by hand, not derived from the contract: the generated module
// imports these types rather than each build writing them again.
import type { OperationId } from "../../generated/handlers.ts";

/** A JSON Schema (2020-12) whose instances are objects. */
export interface ObjectSchema {
  readonly type: "object";
  readonly [keyword: string]: unknown;
}

/** A tool as `tools/list` shows it. */
export interface McpTool {
  readonly name: OperationId;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: ObjectSchema;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
  };
}

/** How a call's arguments make the operation's request, and what its answer is. */
export interface McpToolCall {
  /** Arguments that are path parameters, and query parameters. */
  readonly path: readonly string[];
  readonly query: readonly string[];
  /** The `body` argument: the JSON body, or a multipart body's parts. */
  readonly body?: "json" | "multipart";
  /** A multipart body's parts that are files. */
  readonly files?: readonly string[];
  readonly answer: "json" | "binary" | "none";
}
