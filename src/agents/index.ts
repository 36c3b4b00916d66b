// Which agent runs: the model at AGENT_BASE_URL for every agent value when one is configured,
// else the built-in offline agent, its work on the project's files done in the build pool's threads.
import type { Agent } from "./agent.ts";
import { createBuiltinAgent, type BuiltinEditor } from "./builtin/agent.ts";
import { createOpenAiAgent } from "./openai.ts";

/** An OpenAI-compatible endpoint every agent runs on (AGENT_BASE_URL, AGENT_API_KEY, AGENT_MODEL). */
export interface AgentEndpoint {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
}

/**
 * The endpoint's agent, or the built-in one when there is none; `editProject` does the built-in
 * agent's work on a project's files (a build thread's, in a server).
 */
export function selectAgent(endpoint: AgentEndpoint | undefined, editProject: BuiltinEditor): Agent {
  if (!endpoint) return createBuiltinAgent(editProject);
  const { baseUrl, apiKey, model } = endpoint;
  return createOpenAiAgent({ baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}
