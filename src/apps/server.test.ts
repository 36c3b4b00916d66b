import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppAccess, type AppAccess } from "../domain/app-access.ts";
import { cookieJar } from "../pages/cookies.ts";
import { admitToPrivateApp } from "./server.ts";

const PROJECT = "prj_private";

/** A listener that lets through what admitToPrivateApp admits, for apps served over http or https. */
async function gate(secure: boolean): Promise<{
  access: AppAccess;
  get(path: string, cookie?: string): Promise<{ status: number; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}> {
  const access = createAppAccess({
    secret: "test-apps-secret-0123456789",
    appsDomain: secure ? "apps.example.com" : undefined,
    appsPort: () => 8081,
  });
  const cookies = cookieJar(access.secure);
  const server: Server = createServer((req, res) => {
    if (admitToPrivateApp(req, res, PROJECT, { access, cookies, head: false })) res.writeHead(200).end("the app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    access,
    get: (path, cookie) =>
      new Promise((resolve, reject) => {
        const outgoing = request(
          { host: "127.0.0.1", port, path, headers: cookie ? { Cookie: cookie } : {} },
          (response) => {
            response.resume();
            response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
          },
        );
        outgoing.on("error", reject);
        outgoing.end();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("a private app's access gate", () => {
  let http: Awaited<ReturnType<typeof gate>>;
  let https: Awaited<ReturnType<typeof gate>>;
  beforeAll(async () => {
    [http, https] = await Promise.all([gate(false), gate(true)]);
  });
  afterAll(() => Promise.all([http.close(), https.close()]));

  it("moves a valid token into a cookie and redirects to the same path on the same origin", async () => {
    const token = http.access.token(PROJECT);
    const answer = await http.get(`/menu/today?day=2&access_token=${token}`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("/menu/today?day=2");
    expect(answer.headers["set-cookie"]).toEqual([
      `pb_app_access=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600`,
    ]);
  });

  it("never redirects off the app's origin, however the link's path is spelled", async () => {
    const token = http.access.token(PROJECT);
    for (const path of [
      "/.//evil.example/x",
      "/..//evil.example/x",
      "/%2e//evil.example/x",
      "/%2e%2e//evil.example/x",
      "//evil.example/x",
      "/\\evil.example/x",
    ]) {
      const answer = await http.get(`${path}?access_token=${token}`);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.location, path).toBe("/");
    }
  });

  it("over https names the cookie __Host- (no sibling app can set it) and marks it Secure", async () => {
    const token = https.access.token(PROJECT);
    const answer = await https.get(`/?access_token=${token}`);
    expect(answer.headers["set-cookie"]).toEqual([
      `__Host-pb_app_access=${token}; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=3600`,
    ]);
    expect((await https.get("/", `__Host-pb_app_access=${token}`)).status).toBe(200);
    // The unprefixed name, which any app under the domain could set, is not read there.
    expect((await https.get("/", `pb_app_access=${token}`)).status).toBe(403);
  });

  it("reads every value of the cookie: one set first by a sibling app does not shadow this app's", async () => {
    const token = http.access.token(PROJECT);
    const sibling = http.access.token("prj_sibling");
    expect((await http.get("/", `pb_app_access=${sibling}; pb_app_access=${token}`)).status).toBe(200);
    expect((await http.get("/", `pb_app_access=${sibling}; pb_app_access=forged`)).status).toBe(403);
    expect((await http.get("/")).status).toBe(403);
    expect((await http.get("/?access_token=forged")).status).toBe(403);
  });
});
