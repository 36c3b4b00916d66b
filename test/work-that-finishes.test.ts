// The whole path a caller takes, with the workers running for real in the server (pg-boss jobs,
// the built-in agent, the build step, the apps listener), on both storage drivers: create a
// project, poll it to `ready`, deploy, open the app at the project's url; change it with a second
// run, deploy, roll back and see the first page again; credits charged for live keys only.
import { describe, expect, it } from "vitest";
import { builtinAgent } from "../src/agents/builtin/agent.ts";
import { queues } from "../src/jobs/queue.ts";
import { expectBody, expectStatus, type ApiClient } from "./support/api-client.ts";
import { getApp, getAppPath, openApp } from "./support/apps-client.ts";
import { forEachDriver } from "./support/database.ts";
import { final, pollUntil } from "./support/poll.ts";
import { suiteServer } from "./support/server.ts";

forEachDriver("work that finishes", (driver) => {
  const server = suiteServer(driver, { workers: true });

  async function deploy(client: ApiClient, projectId: string, body?: object) {
    const created = await client.post(`/v1/projects/${projectId}/deployments`, body);
    expectStatus(created, 202);
    return pollUntil(client, `/v1/projects/${projectId}/deployments/${created.body.id}`, final);
  }

  it("creates, builds, deploys, changes, rolls back, and charges the live partition", async () => {
    const client = server.client;
    const created = await client.post("/v1/projects", {
      name: "Recipe <planner>",
      prompt: "A web app that plans dinners from my fridge.",
    });
    expectStatus(created, 201);
    expect(created.body.status).toBe("queued");

    const ready = await pollUntil(client, `/v1/projects/${created.body.id}`, final);
    expect(ready.status).toBe("ready");
    const run = expectBody(await client.get(`/v1/projects/${created.body.id}/runs/${ready.latest_run_id}`), 200);
    expect(run).toMatchObject({ status: "succeeded", error: null, credits_used: 1 });
    expect(run.started_at).not.toBeNull();
    expect(run.summary).toContain("index.html");
    const files = expectBody(await client.get(`/v1/projects/${created.body.id}/files`), 200).data.map(
      (file: { path: string }) => file.path,
    );
    expect(files.sort()).toEqual(["app.js", "app.json", "index.html", "style.css"]);

    const first = await deploy(client, created.body.id);
    expect(first).toMatchObject({ status: "ready", error: null });
    const project = expectBody(await client.get(`/v1/projects/${created.body.id}`), 200);
    // A private project's url carries a signed token; the bare origin serves nobody.
    expect(project.url).toContain("access_token=");
    expect((await getApp(server.appsUrl, new URL(project.url!).origin)).status).toBe(403);
    const page = await openApp(server.appsUrl, project.url!);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(page.text).toContain("<h1>Recipe &lt;planner&gt;</h1>");
    expect(page.text).toContain("plans dinners from my fridge");
    // The link's redirect (which drops the token from the address) stays on the app's origin,
    // whatever path the link names.
    const appUrl = new URL(project.url!);
    for (const path of [
      "/.//evil.example/x",
      "/..//evil.example/x",
      "/%2e//evil.example/x",
      "/%2E%2E//evil.example/x",
      "//evil.example/x",
      "/\\evil.example/x",
    ]) {
      const answer = await getAppPath(
        server.appsUrl,
        appUrl.host,
        `${path}?access_token=${appUrl.searchParams.get("access_token")}`,
      );
      expect(answer.status, path).toBe(303);
      expect(new URL(String(answer.headers.location), appUrl).origin, path).toBe(appUrl.origin);
      expect(String(answer.headers.location), path).not.toMatch(/^\/[/\\]/);
    }
    // The page's own assets load with the cookie the token left.
    const css = await getApp(server.appsUrl, new URL("style.css", project.url).toString(), { Cookie: page.cookie! });
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");

    const second = await client.post(`/v1/projects/${created.body.id}/runs`, {
      prompt: "Add an about section",
    });
    expectStatus(second, 202);
    const secondRun = await pollUntil(client, `/v1/projects/${created.body.id}/runs/${second.body.id}`, final);
    expect(secondRun.status).toBe("succeeded");
    const changed = await deploy(client, created.body.id);
    expect(changed.status).toBe("ready");
    const changedUrl = expectBody(await client.get(`/v1/projects/${created.body.id}`), 200).url!;
    expect(new URL(changedUrl).origin).not.toBe(new URL(project.url!).origin);
    const changedPage = await openApp(server.appsUrl, changedUrl);
    expect(changedPage.text).toContain("<h1>Recipe &lt;planner&gt;</h1>");
    expect(changedPage.text).toContain('<section class="panel text-section" id="about">');

    const deployments = expectBody(await client.get(`/v1/projects/${created.body.id}/deployments`), 200).data;
    const firstId = deployments.at(-1)!.id;
    const rollback = await client.post(`/v1/projects/${created.body.id}/deployments/${firstId}/rollback`);
    expectStatus(rollback, 202);
    const rolledBack = await pollUntil(
      client,
      `/v1/projects/${created.body.id}/deployments/${rollback.body.id}`,
      final,
    );
    expect(rolledBack).toMatchObject({ status: "ready", rollback_of: firstId });
    const rolledBackPage = await openApp(
      server.appsUrl,
      expectBody(await client.get(`/v1/projects/${created.body.id}`), 200).url!,
    );
    expect(rolledBackPage.text).toContain("plans dinners from my fridge");
    expect(rolledBackPage.text).not.toContain('id="about"');
    // The superseded deployment keeps serving its own build at its own origin.
    expect((await openApp(server.appsUrl, changedUrl)).text).toContain('id="about"');

    const usage = expectBody(await client.get("/v1/billing/usage"), 200);
    const used = usage.by_agent.find((entry: { agent: string }) => entry.agent === "coding-agent-1");
    expect(used).toMatchObject({ runs: 2, credits_used: 2 });
    expect(usage.credits.used).toBe(2);
  });

  it("never charges test keys", async () => {
    const client = server.as(await server.createKey({ workspace: "sandbox", environment: "test" }));
    const created = await client.post("/v1/projects", {
      name: "Sandbox",
      prompt: "A todo list",
      agent: "coding-agent-3",
    });
    expectStatus(created, 201);
    const ready = await pollUntil(client, `/v1/projects/${created.body.id}`, final);
    expect(ready.status).toBe("ready");
    expect(
      expectBody(await client.get(`/v1/projects/${created.body.id}/runs/${ready.latest_run_id}`), 200).credits_used,
    ).toBe(0);
    expect(expectBody(await client.get("/v1/billing/usage"), 200).credits.used).toBe(0);
  });

  it("serves public apps to everyone, unlisted ones with noindex, and nothing at unknown hosts", async () => {
    const client = server.client;
    for (const visibility of ["public", "unlisted"] as const) {
      const created = await client.post("/v1/projects", {
        name: `Open ${visibility}`,
        prompt: "A landing page",
        visibility,
        template: "landing-page",
      });
      expectStatus(created, 201);
      await pollUntil(client, `/v1/projects/${created.body.id}`, final);
      const deployment = await deploy(client, created.body.id);
      expect(deployment.url).not.toContain("access_token");
      const page = await getApp(server.appsUrl, deployment.url!);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`Open ${visibility}`);
      expect(page.headers["x-robots-tag"]).toBe(visibility === "unlisted" ? "noindex" : undefined);
      // Client-side routes fall back to index.html; a missing asset is a 404.
      expect((await getApp(server.appsUrl, new URL("settings/profile", deployment.url!).toString())).status).toBe(200);
      expect((await getApp(server.appsUrl, new URL("missing.png", deployment.url!).toString())).status).toBe(404);
    }
    expect((await getApp(server.appsUrl, "http://nothing-here-0000000000.localhost/")).status).toBe(404);
    expect((await getApp(server.appsUrl, "http://127.0.0.1/")).status).toBe(404);
  });

  describe("a failing build", () => {
    it("fails the deployment and says why, keeping what was served", async () => {
      const client = server.client;
      const created = await client.post("/v1/projects", { name: "Broken", prompt: "A page", visibility: "public" });
      expectStatus(created, 201);
      await pollUntil(client, `/v1/projects/${created.body.id}`, final);
      const good = await deploy(client, created.body.id);
      const index = expectBody(await client.get(`/v1/projects/${created.body.id}/files`), 200).data.find(
        (file: { path: string }) => file.path === "index.html",
      );
      expect((await client.delete(`/v1/projects/${created.body.id}/files/${index!.id}`)).status).toBe(204);
      // The next run writes a page again (the built-in agent starts over without an index.html),
      // so break the build another way: a script entry point that does not compile.
      const form = new FormData();
      form.append("path", "index.html");
      form.append(
        "file",
        new Blob(['<!doctype html><html><body><script type="module" src="main.ts"></script></body></html>'], {
          type: "text/html",
        }),
        "index.html",
      );
      expect((await client.request("POST", `/v1/projects/${created.body.id}/files`, { raw: form })).status).toBe(201);
      const bad = new FormData();
      bad.append("path", "main.ts");
      bad.append("file", new Blob(["const x: number = ;"], { type: "text/plain" }), "main.ts");
      expect((await client.request("POST", `/v1/projects/${created.body.id}/files`, { raw: bad })).status).toBe(201);
      const run = await client.post(`/v1/projects/${created.body.id}/runs`, { prompt: "keep going" });
      expectStatus(run, 202);
      await pollUntil(client, `/v1/projects/${created.body.id}/runs/${run.body.id}`, final);

      const failed = await deploy(client, created.body.id);
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatchObject({ code: "build_error" });
      expect(JSON.stringify(failed.error)).toContain("main.ts");
      expect((await getApp(server.appsUrl, good.url!)).status).toBe(200);
      expect(expectBody(await client.get(`/v1/projects/${created.body.id}`), 200).url).toBe(good.url);
    });
  });

  describe("a build past its time limit", () => {
    // Runs succeed (the agent works in this thread); every build passes its limit of 1 ms.
    const limited = suiteServer(driver, { workers: { agent: builtinAgent, buildTimeoutMs: 1 } });

    it("fails the deployment naming the limit, and its job ends rather than being retried", async () => {
      const created = await limited.client.post("/v1/projects", { name: "Heavy", prompt: "A page" });
      expectStatus(created, 201);
      await pollUntil(limited.client, `/v1/projects/${created.body.id}`, final);
      const failed = await deploy(limited.client, created.body.id);
      expect(failed).toMatchObject({
        status: "failed",
        error: { code: "build_error", message: "The build passed its time limit of 1 ms." },
      });
      const jobs = () =>
        limited.jobs.boss.findJobs<{ deploymentId: string }>(queues.deploymentBuild, {
          data: { deploymentId: failed.id },
        });
      await expect
        .poll(async () => (await jobs()).map((job) => [job.state, job.retryCount]))
        .toEqual([["completed", 0]]);
    });
  });
});
