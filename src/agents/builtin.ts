// The offline agent: builds a small static web app from templates, with no model behind it. It is
// what runs when no model is configured, and what tests build against, so its output depends only
// on its input: the same run twice writes the same bytes. Its work on the project's text is
// builtin-edit.ts; a server has it done in a build thread (src/jobs/build-pool/), so that no page a
// tenant uploaded is ever read on the API's event loop.
import { AgentError, type Agent, type AgentInput, type AgentResult } from "./agent.ts";
import { editProject, restyleRules, type BuiltinEdit, type BuiltinRequest } from "./builtin-edit.ts";
import { MAX_AGENT_FILE_BYTES, type WorkingTree } from "./working-tree.ts";

/** Carries out the agent's work on a request: editProject itself, or a build thread. */
export type BuiltinEditor = (request: BuiltinRequest, signal: AbortSignal) => Promise<BuiltinEdit>;

/** The built-in agent, its work on the project's text done by `edit`. */
export function createBuiltinAgent(edit: BuiltinEditor): Agent {
  return {
    kind: "builtin",
    async run(input: AgentInput): Promise<AgentResult> {
      input.signal.throwIfAborted();
      const indexHtml = await readEdited(input.files, "index.html");
      // style.css is read only for a style change (the prompt, a short text, says whether).
      const restyling = !input.initial && indexHtml !== undefined && restyleRules(input.prompt) !== undefined;
      const styleCss = restyling ? await readEdited(input.files, "style.css") : undefined;
      const { agent, prompt, initial, project } = input;
      const request = {
        agent,
        prompt,
        initial,
        project: { name: project.name, template: project.template },
        indexHtml,
        styleCss,
      };
      const { writes, summary } = await edit(request, input.signal);
      for (const [path, text] of writes) {
        input.files.write(path, text);
        input.progress?.(`Wrote ${path}`);
      }
      return { summary };
    },
  };
}

/** The built-in agent working in the calling thread: for tests and tools, never a server. */
export const builtinAgent: Agent = createBuiltinAgent(async (request) => editProject(request));

/** A file the agent edits, as text; one it could not write back (over MAX_AGENT_FILE_BYTES) is refused unread. */
async function readEdited(files: WorkingTree, path: string): Promise<string | undefined> {
  const bytes = await files.read(path);
  if (bytes === undefined) return undefined;
  if (bytes.byteLength > MAX_AGENT_FILE_BYTES) {
    throw new AgentError(
      "agent_error",
      `${path} has ${bytes.byteLength} bytes; the built-in agent edits files of at most ${MAX_AGENT_FILE_BYTES} (1 MiB).`,
    );
  }
  return new TextDecoder().decode(bytes);
}
