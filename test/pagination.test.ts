// Keyset pagination over HTTP, on the embedded database: many pages while items are inserted and
// deleted between fetches, newest first, no duplicates, nothing skipped; cursors bound to their
// list, filters and partition, and tamper-evident; limit bounds and the default page size.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "../src/domain/projects.ts";
import {
  expectApiError,
  expectBody,
  expectStatus,
  type ApiClient,
  type ApiResponse,
  type ResponseTo,
} from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

interface Item {
  id: string;
  name: string;
  created_at: string;
  latest_run_id?: string | null;
}

onEmbeddedDatabase("pagination", (driver) => {
  let server: TestServer;
  let client: ApiClient;
  /** The 45 projects made before any test, oldest first. */
  let initial: Item[];

  async function create(name: string, c = client): Promise<Item> {
    const response = await c.post("/v1/projects", { name, prompt: "p" });
    expectStatus(response, 201);
    return response.body;
  }

  function expectInvalidCursor(response: ApiResponse): void {
    expectApiError(response, 400, "invalid_request", "cursor");
  }

  beforeAll(async () => {
    server = await startTestServer(driver);
    client = server.client;
    // Made through the domain (the HTTP create is proven elsewhere): quicker. Every third one public.
    const key = expectBody(await client.get("/v1/key"), 200);
    const partition = { workspaceId: key.workspace.id, environment: key.environment };
    initial = [];
    for (let i = 0; i < 45; i++) {
      const visibility = i % 3 === 0 ? "public" : "private";
      initial.push(
        await createProject(server.storage.db, server.jobs, partition, {
          name: `P${String(i).padStart(2, "0")}`,
          prompt: "p",
          visibility,
        }),
      );
    }
  });
  afterAll(() => server?.stop());

  it("pages through everything with limit 7 while projects are inserted and deleted between pages", async () => {
    const seen: Item[] = [];
    const deleted = new Set<string>();
    const inserted = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: ResponseTo<"GET", "/v1/projects"> = await client.get(
        `/v1/projects?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expectStatus(response, 200);
      const page = response.body.data;
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page);
      cursor = response.body.next_cursor;
      pages++;
      if (cursor) {
        expect(page).toHaveLength(7);
        // Between pages: a new project (newer than all: it belongs before the pages already read),
        // the deletion of one not yet read, and of one already read.
        inserted.add((await create(`New after page ${pages}`)).id);
        const unread = initial.filter((item) => !seen.some((s) => s.id === item.id) && !deleted.has(item.id));
        const victims = [unread[Math.floor(unread.length / 2)], seen[seen.length - 2]].filter(
          (v): v is Item => v !== undefined,
        );
        for (const victim of victims) {
          if (deleted.has(victim.id)) continue;
          expect((await client.delete(`/v1/projects/${victim.id}`)).status).toBe(204);
          deleted.add(victim.id);
        }
      }
    } while (cursor && pages < 50);
    expect(cursor).toBeNull();

    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size, "no duplicates").toBe(ids.length);
    // Everything that existed from the first page to the last was seen.
    const throughout = initial.filter((item) => !deleted.has(item.id)).map((item) => item.id);
    for (const id of throughout) expect(ids, `${id} skipped`).toContain(id);
    // Nothing inserted after the walk began (those come before the first page), nothing deleted before its page.
    for (const id of ids) expect(inserted.has(id), `${id} was inserted during the walk`).toBe(false);
    const deletedUnread = [...deleted].filter((id) => !ids.includes(id));
    expect(deletedUnread.length).toBeGreaterThan(0);
    // Newest first, ties broken by id.
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      expect(a.created_at >= b.created_at, `${a.id} (${a.created_at}) before ${b.id} (${b.created_at})`).toBe(true);
    }
    expect(pages).toBeGreaterThanOrEqual(6);
  });

  it("newest first by default, 20 to a page", async () => {
    const first = await client.get("/v1/projects");
    expectStatus(first, 200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const newest = await create("Newest of all");
    const again = await client.get("/v1/projects");
    expectStatus(again, 200);
    expect(again.body.data[0]!.id).toBe(newest.id);
    expect(again.body.data[1]!.id).toBe(first.body.data[0]!.id);
  });

  it("ends with next_cursor null on a last page that is exactly full", async () => {
    const other = server.as(await server.createKey({ workspace: "exact-pages" }));
    for (let i = 0; i < 6; i++) await create(`E${i}`, other);
    const first = await other.get("/v1/projects?limit=3");
    expectStatus(first, 200);
    expect(first.body.data).toHaveLength(3);
    const second = await other.get(`/v1/projects?limit=3&cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expectStatus(second, 200);
    expect(second.body.data).toHaveLength(3);
    expect(second.body.next_cursor).toBeNull();
    const all = await other.get("/v1/projects?limit=6");
    expectStatus(all, 200);
    expect(all.body.next_cursor).toBeNull();
    expect([...first.body.data, ...second.body.data]).toEqual(all.body.data);
  });

  it("pages a filtered list with its own cursors", async () => {
    const publicIds: string[] = [];
    let cursor: string | null = null;
    do {
      const response: ResponseTo<"GET", "/v1/projects"> = await client.get(
        `/v1/projects?visibility=public&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expectStatus(response, 200);
      for (const item of response.body.data) expect(item.visibility).toBe("public");
      publicIds.push(...response.body.data.map((item: Item) => item.id));
      cursor = response.body.next_cursor;
    } while (cursor);
    const all = expectBody(await client.get("/v1/projects?visibility=public&limit=100"), 200).data.map(
      (item: Item) => item.id,
    );
    expect(publicIds).toEqual(all);
  });

  describe("cursors", () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = expectBody(await client.get("/v1/projects?limit=2"), 200).next_cursor!;
      expect(cursor).toEqual(expect.any(String));
    });
    const q = (c: string | null) => encodeURIComponent(c!);

    it("are refused on another list", async () => {
      await client.post("/v1/webhooks", { url: "https://hooks.example.com/a", enabled_events: ["*"] });
      expectInvalidCursor(await client.get(`/v1/webhooks?cursor=${q(cursor)}`));
      expectInvalidCursor(await client.get(`/v1/events?cursor=${q(cursor)}`));
      const [a, b] = [await create("Runs A"), await create("Runs B")];
      expectInvalidCursor(await client.get(`/v1/projects/${a.id}/runs?cursor=${q(cursor)}`));
      const eventsCursor = expectBody(await client.get("/v1/events?limit=1"), 200).next_cursor;
      expectInvalidCursor(await client.get(`/v1/projects?cursor=${q(eventsCursor)}`));
      // A runs cursor of one project on another project's runs.
      expect((await client.post(`/v1/projects/${a.id}/runs/${a.latest_run_id}/cancel`)).status).toBe(200);
      expect((await client.post(`/v1/projects/${a.id}/runs`, { prompt: "second" })).status).toBe(202);
      const runsCursor = expectBody(await client.get(`/v1/projects/${a.id}/runs?limit=1`), 200).next_cursor;
      expect(runsCursor).toEqual(expect.any(String));
      expect((await client.get(`/v1/projects/${a.id}/runs?cursor=${q(runsCursor)}`)).status).toBe(200);
      expectInvalidCursor(await client.get(`/v1/projects/${b.id}/runs?cursor=${q(runsCursor)}`));
    });

    it("are refused with other filters than they were made with", async () => {
      const filtered = expectBody(await client.get("/v1/projects?visibility=public&limit=2"), 200).next_cursor!;
      expectInvalidCursor(await client.get(`/v1/projects?cursor=${q(filtered)}`));
      expectInvalidCursor(await client.get(`/v1/projects?visibility=private&cursor=${q(filtered)}`));
      expectInvalidCursor(await client.get(`/v1/projects?visibility=public&cursor=${q(cursor)}`));
      expect((await client.get(`/v1/projects?visibility=public&cursor=${q(filtered)}`)).status).toBe(200);
      // The page size is not a filter: it may change from page to page.
      expect((await client.get(`/v1/projects?limit=5&cursor=${q(cursor)}`)).status).toBe(200);
    });

    it("are refused in another workspace and in the other environment", async () => {
      const other = server.as(await server.createKey({ workspace: "cursor-thief" }));
      const test = server.as(await server.createKey({ environment: "test" }));
      for (const c of [other, test]) {
        await create("Own", c);
        expectInvalidCursor(await c.get(`/v1/projects?cursor=${q(cursor)}`));
      }
    });

    it("are refused when tampered with or made up", async () => {
      const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === "A" ? "B" : "A") + s.slice(at + 1);
      for (const at of [0, 5, Math.floor(cursor.length / 2), cursor.length - 1]) {
        expectInvalidCursor(await client.get(`/v1/projects?cursor=${q(flip(cursor, at))}`));
      }
      for (const bad of [
        "abc",
        "x".repeat(300),
        cursor.slice(0, -4),
        `${cursor}AAAA`,
        Buffer.from('["2020-01-01T00:00:00Z","prj_x"]').toString("base64url"),
      ]) {
        expectInvalidCursor(await client.get(`/v1/projects?cursor=${q(bad)}`));
      }
    });

    it("are accepted again and again: the same cursor gives the same page", async () => {
      const a = await client.get(`/v1/projects?limit=3&cursor=${q(cursor)}`);
      const b = await client.get(`/v1/projects?limit=3&cursor=${q(cursor)}`);
      expect(a.body).toEqual(b.body);
    });
  });

  it("refuses a limit outside 1–100 or not a number, naming limit", async () => {
    for (const limit of ["0", "101", "abc", "-1", "1.5", ""]) {
      const response = await client.get(`/v1/projects?limit=${limit}`);
      expectStatus(response, 400, `limit=${limit}`);
      expect(response.body.error).toMatchObject({ code: "invalid_request", param: "limit" });
    }
    expect(expectBody(await client.get("/v1/projects?limit=1"), 200).data).toHaveLength(1);
    expect(expectBody(await client.get("/v1/projects?limit=100"), 200).data.length).toBeGreaterThan(20);
  });
});
