// Which agent runs: the model at AGENT_BASE_URL for every agent value when one is configured,
// else the built-in offline agent, its work on the project's files done in the build pool's threads.
import type { Config } from "../config.ts";
import type { BuildPool } from "../jobs/build-pool/build-pool.ts";
import type { Agent } from "./agent.ts";
import { createBuiltinAgent } from "./builtin.ts";
import { createOpenAiAgent } from "./openai.ts";

export function selectAgent(config: Pick<Config, "agent">, buildPool: Pick<BuildPool, "editProject">): Agent {
  if (!config.agent) return createBuiltinAgent(buildPool.editProject);
  const { baseUrl, apiKey, model } = config.agent;
  return createOpenAiAgent({ baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}
