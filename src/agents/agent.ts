// The one interface every agent implements. An agent gets the prompt, the project and its current
// files (through a WorkingTree it reads and writes), the files attached to the prompt, an
// AbortSignal and a usage meter; it writes files and answers a summary. It never touches storage:
// the run worker applies the tree's changes in one transaction when the run ends, so a run that
// fails, times out or is canceled writes nothing.
import type { SchemaAgent, SchemaTemplate } from "../../generated/schema.d.ts";
import type { WorkingTree } from "./working-tree.ts";

export interface AgentInput {
  /** The agent value the run asked for (`coding-agent-1` …). */
  readonly agent: SchemaAgent;
  readonly prompt: string;
  readonly project: {
    readonly id: string;
    readonly name: string;
    readonly template: SchemaTemplate;
  };
  /** True for the project's first run (trigger `project_created`), false for a follow-up. */
  readonly initial: boolean;
  /** The project's files as the run starts; the agent's writes and deletes are recorded here. */
  readonly files: WorkingTree;
  /** Files of the project given with the prompt (an image to use, notes to read), in the run's order. */
  readonly attachments: readonly AgentAttachment[];
  /** Aborted when the run is canceled or times out: stop at once, abort outbound requests. */
  readonly signal: AbortSignal;
  /**
   * Reports the model's token use; throws InsufficientCreditsError once the credits left are spent,
   * BudgetExceededError once the run's own `max_credits` is.
   */
  readonly meter: UsageMeter;
  /** Tells who follows the run what it just did (a file written, a tool called), in a few words. */
  readonly progress?: (message: string) => void;
}

/** A file given with the prompt: a file of `files` as the run started, by its path. */
export interface AgentAttachment {
  readonly path: string;
  /** Its media type: the stored one when specific, else by its extension (`image/png`, `text/markdown`). */
  readonly contentType: string;
  readonly sizeBytes: number;
  /** Its content as the run started, whatever the agent has written to the path since. */
  read(): Promise<Uint8Array>;
}

export interface AgentResult {
  /** A sentence or two on what the run did, for people (kept with the run, at most 1,000 characters). */
  readonly summary: string;
}

export interface Agent {
  /** Which implementation this is: the worker prices `builtin` runs per agent value, `model` runs per token. */
  readonly kind: "builtin" | "model";
  run(input: AgentInput): Promise<AgentResult>;
}

export interface UsageMeter {
  /** Adds tokens the model reported for one request. */
  addTokens(tokens: number): void;
  /** Tokens counted so far. */
  readonly tokens: number;
}

export { AgentError, BudgetExceededError, InsufficientCreditsError, type AgentErrorCode } from "./errors.ts";
