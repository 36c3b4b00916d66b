// The offline agent: builds a small working web app from its catalogue (catalogue.ts), with no
// model behind it. It is what runs when no model is configured, and what tests build against, so
// its output depends only on its input: the same run twice writes the same bytes. Its work on the
// project's text is edit.ts; a server has it done in a build thread (src/jobs/build-pool/), so that
// no page a tenant uploaded is ever read on the API's event loop.
import { AgentError, type Agent, type AgentInput, type AgentResult } from "../agent.ts";
import { MAX_AGENT_FILE_BYTES, type WorkingTree } from "../working-tree.ts";
import { editProject, type BuiltinEdit, type BuiltinRequest, type ProjectTexts } from "./edit.ts";
import { restyleRules } from "./page-edit.ts";

/** Carries out the agent's work on a request: editProject itself, or a build thread. */
export type BuiltinEditor = (request: BuiltinRequest, signal: AbortSignal) => Promise<BuiltinEdit>;

/** The built-in agent, its work on the project's text done by `edit`. */
export function createBuiltinAgent(edit: BuiltinEditor): Agent {
  return {
    kind: "builtin",
    async run(input: AgentInput): Promise<AgentResult> {
      input.signal.throwIfAborted();
      const { agent, prompt, initial, project } = input;
      const files = initial ? {} : await readTexts(input.files, prompt);
      // Only the attachments' paths and types: an image is linked by its path, never copied.
      const attachments = input.attachments.map(({ path, contentType }) => ({ path, contentType }));
      const request = {
        agent,
        prompt,
        initial,
        project: { name: project.name, template: project.template },
        files,
        attachments,
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

/**
 * The files a follow-up reads: the app and its spec when the agent built it; else index.html, and
 * style.css only when the prompt asks for a style change (a large stylesheet is then not read).
 */
async function readTexts(files: WorkingTree, prompt: string): Promise<ProjectTexts> {
  const indexHtml = await readEdited(files, "index.html");
  if (indexHtml === undefined) return {};
  const appJson = await readEdited(files, "app.json");
  if (appJson !== undefined) {
    const [styleCss, appJs] = await Promise.all([readEdited(files, "style.css"), readEdited(files, "app.js")]);
    return { "index.html": indexHtml, "app.json": appJson, "style.css": styleCss, "app.js": appJs };
  }
  const styleCss = restyleRules(prompt) ? await readEdited(files, "style.css") : undefined;
  return { "index.html": indexHtml, "style.css": styleCss };
}

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
