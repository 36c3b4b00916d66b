// How an agent says why a run failed. Apart from agent.ts, which names the working tree agents
// write through, so that the working tree can throw them without a circle.
/**
 * Why a run failed, as the run's `error.code` says it. An agent throws AgentError for a failure it
 * understands; anything else it throws becomes `agent_error` too, with a generic message.
 */
export type AgentErrorCode =
  "agent_error" | "invalid_output" | "insufficient_credits" | "budget_exceeded" | "timeout" | "canceled";

export class AgentError extends Error {
  readonly code: AgentErrorCode;
  constructor(code: AgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AgentError";
    this.code = code;
  }
}

/** The run's cost passed the credits the workspace has left. */
export class InsufficientCreditsError extends AgentError {
  constructor(message = "The run used up the workspace's remaining credits.") {
    super("insufficient_credits", message);
    this.name = "InsufficientCreditsError";
  }
}

/** The run's cost passed its own `max_credits`. */
export class BudgetExceededError extends AgentError {
  constructor(message = "The run used up its budget (max_credits).") {
    super("budget_exceeded", message);
    this.name = "BudgetExceededError";
  }
}
