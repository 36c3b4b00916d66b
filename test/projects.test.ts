// Projects over HTTP, end to end, on the embedded database.
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { projects } from "../src/storage/schema.ts";
import { expectBody, expectStatus, invalidBody } from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

onEmbeddedDatabase("projects", (driver) => {
  const server = suiteServer(driver);

  it("creates a project with the defaults, queues its initial run and answers at once", async () => {
    const created = await server.client.post("/v1/projects", {
      name: "Recipe planner",
      prompt: "Plan dinners from my fridge.",
    });
    expectStatus(created, 201);
    expect(created.headers.get("location")).toBe(`/v1/projects/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: "Recipe planner",
      prompt: "Plan dinners from my fridge.",
      agent: "coding-agent-1",
      visibility: "private",
      template: "blank",
      status: "queued",
    });
    expect(created.body.id).toMatch(/^prj_/);
    const runs = await server.client.get(`/v1/projects/${created.body.id}/runs`);
    expectStatus(runs, 200);
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0]).toMatchObject({
      id: created.body.latest_run_id,
      status: "queued",
      trigger: "project_created",
    });
  });

  it("takes the agent, visibility and template the caller chooses", async () => {
    const created = await server.client.post("/v1/projects", {
      name: "Dashboard",
      prompt: "Sales dashboard",
      agent: "coding-agent-3",
      visibility: "unlisted",
      template: "dashboard",
    });
    expect(created.body).toMatchObject({ agent: "coding-agent-3", visibility: "unlisted", template: "dashboard" });
    const nullTemplate = await server.client.post("/v1/projects", { name: "Blank", prompt: "x", template: null });
    expectStatus(nullTemplate, 201);
    expect(nullTemplate.body.template).toBe("blank");
  });

  it("names the missing field of a refused create, and creates nothing", async () => {
    const before = await server.client.get("/v1/projects?limit=100");
    expectStatus(before, 200);
    const refused = await server.client.post("/v1/projects", invalidBody({ name: "No prompt" }));
    expectStatus(refused, 400);
    expect(refused.body.error).toMatchObject({ code: "invalid_request", param: "prompt" });
    expect(refused.body.error.request_id).toBe(refused.headers.get("x-request-id"));
    const wrongAgent = await server.client.post(
      "/v1/projects",
      invalidBody({ name: "x", prompt: "y", agent: "coding-agent-9" }),
    );
    expectStatus(wrongAgent, 400);
    expect(wrongAgent.body.error).toMatchObject({ code: "invalid_request", param: "agent" });
    const after = await server.client.get("/v1/projects?limit=100");
    expectStatus(after, 200);
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it("gets, updates and deletes a project; a deleted project is gone with its runs", async () => {
    const project = expectBody(await server.client.post("/v1/projects", { name: "Temp", prompt: "temp" }), 201);
    const got = await server.client.get(`/v1/projects/${project.id}`);
    expect(got.body).toEqual(project);

    const updated = await server.client.patch(`/v1/projects/${project.id}`, { name: "Renamed", visibility: "public" });
    expectStatus(updated, 200);
    expect(updated.body).toMatchObject({
      name: "Renamed",
      visibility: "public",
      agent: project.agent,
      prompt: project.prompt,
    });
    expect(Date.parse(updated.body.updated_at!)).toBeGreaterThanOrEqual(Date.parse(project.updated_at!));

    expect((await server.client.delete(`/v1/projects/${project.id}`)).status).toBe(204);
    const gone = await server.client.get(`/v1/projects/${project.id}`);
    expectStatus(gone, 404);
    expect(gone.body.error).toMatchObject({ code: "not_found", param: "project_id" });
    expect((await server.client.get(`/v1/projects/${project.id}/runs`)).status).toBe(404);
    // A run of a project that is gone: the project is what is missing, as for its deployments and files.
    const run = await server.client.get(`/v1/projects/${project.id}/runs/${project.latest_run_id}`);
    expect(run.status).toBe(404);
    expect(run.body.error).toMatchObject({ code: "not_found", param: "project_id" });
    const list = await server.client.get("/v1/projects?limit=100");
    expectStatus(list, 200);
    expect(list.body.data.map((p: { id: string }) => p.id)).not.toContain(project.id);
    expect((await server.client.delete(`/v1/projects/${project.id}`)).status).toBe(404);
  });

  it("refuses an update that breaks the contract", async () => {
    const project = expectBody(await server.client.post("/v1/projects", { name: "Keep", prompt: "keep" }), 201);
    const bad = await server.client.patch(`/v1/projects/${project.id}`, invalidBody({ visibility: "secret" }));
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe("visibility");
    expect(expectBody(await server.client.get(`/v1/projects/${project.id}`), 200).visibility).toBe("private");
  });

  it("lists each project as a read of it answers it, member for member and in the same order (a published one too)", async () => {
    const plain = await server.client.post("/v1/projects", {
      name: "Listed",
      prompt: "as read",
      visibility: "unlisted",
    });
    expectStatus(plain, 201);
    const published = await server.client.post("/v1/projects", { name: "Listed published", prompt: "with a url" });
    expectStatus(published, 201);
    // A url as a deployment leaves it (the page and the read present it for its visibility alike).
    await server.storage.db
      .update(projects)
      .set({ url: "http://listed.localhost:8081" })
      .where(eq(projects.id, published.body.id));
    const page = await server.client.get("/v1/projects?limit=2");
    expectStatus(page, 200);
    expect(page.body.data.map((project: { id: string }) => project.id)).toEqual([published.body.id, plain.body.id]);
    for (const listed of page.body.data) {
      const read = expectBody(await server.client.get(`/v1/projects/${listed.id}`), 200);
      const withoutToken = (project: { url?: string }) => ({
        ...project,
        url: project.url?.replace(/access_token=[^&]+/, "access_token=…"),
      });
      expect(JSON.stringify(withoutToken(listed))).toBe(JSON.stringify(withoutToken(read)));
    }
    expect(page.body.data[0]!.url).toMatch(/^http:\/\/listed\.localhost:8081/);
  });

  it("filters the list by status and visibility", async () => {
    await server.client.post("/v1/projects", { name: "Public one", prompt: "p", visibility: "public" });
    const publicOnly = await server.client.get("/v1/projects?visibility=public&limit=100");
    expectStatus(publicOnly, 200);
    expect(publicOnly.body.data.length).toBeGreaterThan(0);
    for (const project of publicOnly.body.data) expect(project.visibility).toBe("public");
    const queued = await server.client.get("/v1/projects?status=ready");
    expectStatus(queued, 200);
    expect(queued.body.data).toEqual([]);
    expect(queued.body.next_cursor).toBeNull();
  });
});
