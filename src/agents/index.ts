// Which agent runs: the model at AGENT_BASE_URL for every agent value when one is configured,
// else the built-in offline agent.
import type { Config } from "../config.ts";
import type { Agent } from "./agent.ts";
import { builtinAgent } from "./builtin.ts";
import { createOpenAiAgent } from "./openai.ts";

export function selectAgent(config: Pick<Config, "agent">): Agent {
  if (!config.agent) return builtinAgent;
  const { baseUrl, apiKey, model } = config.agent;
  return createOpenAiAgent({ baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}
