// Which agent runs: the model at AGENT_BASE_URL for every agent value when one is configured,
// else the built-in offline agent, its work on the project's files done in the build pool's threads.
import type { Config } from "../config.ts";
import type { Agent } from "./agent.ts";
import { createBuiltinAgent, type BuiltinEditor } from "./builtin.ts";
import { createOpenAiAgent } from "./openai.ts";

/** `editProject` does the built-in agent's work on a project's files (a build thread's, in a server). */
export function selectAgent(config: Pick<Config, "agent">, editProject: BuiltinEditor): Agent {
  if (!config.agent) return createBuiltinAgent(editProject);
  const { baseUrl, apiKey, model } = config.agent;
  return createOpenAiAgent({ baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}
