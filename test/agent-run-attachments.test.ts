// Attachments and budgets of agent runs over HTTP, end to end with the built-in agent, on both
// storage drivers: a run records the files it is given and the agent's page shows an attached
// image; an attachment that is not a file of the project, or a budget below 1, is refused; a run
// whose price passes its budget ends `budget_exceeded`, charged nothing.
import { expect, it } from "vitest";
import { expectApiError, expectBody, expectStatus, invalidBody, type ApiClient } from "./support/api-client.ts";
import { forEachDriver } from "./support/database.ts";
import { final, pollUntil } from "./support/poll.ts";
import { suiteServer } from "./support/server.ts";

forEachDriver("agent run attachments and budgets", (driver) => {
  const server = suiteServer(driver, { workers: true });

  /** A project whose initial run has ended, so that another may be triggered. */
  async function readyProject(client: ApiClient = server.client, name = "Team page") {
    const created = expectBody(await client.post("/v1/projects", { name, prompt: "A team page" }), 201);
    await pollUntil(client, `/v1/projects/${created.id}`, final);
    return created.id;
  }

  async function upload(projectId: string, path: string, content: Uint8Array, type: string) {
    const data = new FormData();
    data.append("path", path);
    data.append("file", new Blob([content], { type }), path);
    return expectBody(await server.client.request("POST", `/v1/projects/${projectId}/files`, { raw: data }), 201);
  }

  async function fileText(projectId: string, path: string): Promise<string> {
    const files = expectBody(await server.client.get(`/v1/projects/${projectId}/files?limit=100`), 200).data;
    const file = files.find((each) => each.path === path)!;
    const content = await server.client.get(`/v1/projects/${projectId}/files/${file.id}/content`);
    return new TextDecoder().decode(content.bytes);
  }

  it("records a run's attachments, and the built-in agent shows an attached image on its page", async () => {
    const projectId = await readyProject();
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const logo = await upload(projectId, "team-logo.png", png, "image/png");
    const notes = await upload(projectId, "notes.md", new TextEncoder().encode("# Who we are"), "text/markdown");
    const triggered = await server.client.post(`/v1/projects/${projectId}/runs`, {
      prompt: "Put our logo on the page",
      attachments: [{ file_id: logo.id }, { file_id: notes.id }],
      max_credits: 5,
    });
    expectStatus(triggered, 202);
    expect(triggered.body).toMatchObject({
      max_credits: 5,
      attachments: [
        { file_id: logo.id, path: "team-logo.png", content_type: "image/png", size_bytes: 8 },
        { file_id: notes.id, path: "notes.md", content_type: "text/markdown", size_bytes: 12 },
      ],
    });
    const run = await pollUntil(server.client, `/v1/projects/${projectId}/runs/${triggered.body.id}`, final);
    expect(run).toMatchObject({ status: "succeeded", credits_used: 1, attachments: triggered.body.attachments });
    expect(run.summary).toContain("placed team-logo.png below the title");
    expect(run.summary).toContain("Read notes.md");
    expect(await fileText(projectId, "index.html")).toContain('<img src="team-logo.png" alt="Team logo">');
  });

  it("refuses an attachment that is not a committed file of the project, naming attachments, and queues nothing", async () => {
    const projectId = await readyProject();
    const other = await readyProject(server.client, "Other");
    const foreign = await upload(other, "photo.png", Uint8Array.from([1, 2, 3]), "image/png");
    const runsBefore = expectBody(await server.client.get(`/v1/projects/${projectId}/runs`), 200).data.length;
    for (const fileId of ["file_000000000000unknown", foreign.id]) {
      const refused = await server.client.post(`/v1/projects/${projectId}/runs`, {
        prompt: "Use it",
        attachments: [{ file_id: fileId }],
      });
      expectApiError(refused, 400, "invalid_request", "attachments", expect.stringContaining(fileId));
    }
    expect(expectBody(await server.client.get(`/v1/projects/${projectId}/runs`), 200).data).toHaveLength(runsBefore);
  });

  it("refuses a max_credits below 1 on a run and on a project, naming it", async () => {
    const projectId = await readyProject();
    const run = await server.client.post(
      `/v1/projects/${projectId}/runs`,
      invalidBody({ prompt: "More", max_credits: 0 }),
    );
    expectApiError(run, 400, "invalid_request", "max_credits");
    const project = await server.client.post(
      "/v1/projects",
      invalidBody({ name: "Budget", prompt: "x", max_credits: 0 }),
    );
    expectApiError(project, 400, "invalid_request", "max_credits");
  });

  it("ends a run whose price passes its max_credits `budget_exceeded`, charging nothing", async () => {
    const client = server.as(await server.createKey({ workspace: "budgets", plan: "pro" }));
    const created = expectBody(
      await client.post("/v1/projects", {
        name: "Big",
        prompt: "A todo list",
        agent: "coding-agent-3",
        max_credits: 2,
      }),
      201,
    );
    const run = await pollUntil(client, `/v1/projects/${created.id}/runs/${created.latest_run_id}`, final);
    expect(run).toMatchObject({
      status: "failed",
      credits_used: 0,
      max_credits: 2,
      version_id: null,
      error: { code: "budget_exceeded" },
    });
    expect(expectBody(await client.get(`/v1/projects/${created.id}/files`), 200).data).toEqual([]);
    expect(expectBody(await client.get("/v1/billing/usage"), 200).credits.used).toBe(0);
  });
});
