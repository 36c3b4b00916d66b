import { expect, it } from "vitest";
import { onEmbeddedDatabase, useStorage } from "../../test/support/database.ts";
import { auditLog } from "../storage/schema.ts";
import { AUDIT_CSV_HEADER, auditCsvLine, eachAuditEntry, listAuditLog, recordAdminAction } from "./audit-log.ts";
import { createWorkspace } from "./workspaces.ts";

const T0 = Date.UTC(2026, 10, 23, 12);

onEmbeddedDatabase("the audit log as the console reads it", (driver) => {
  const storage = useStorage(driver);

  async function seed() {
    const { db } = storage();
    const workspace = await createWorkspace(db, { slug: "acme" });
    const request = (i: number, status: number, keyId: string | null, clientId: string | null = null) => ({
      occurredAt: new Date(T0 + i * 1000),
      workspaceId: workspace.id,
      keyId,
      clientId,
      method: "GET",
      route: "/v1/projects",
      path: "/v1/projects",
      status,
      ip: "127.0.0.1",
      userAgent: "test",
      requestId: `req_${i}`,
      latencyMs: 1,
    });
    await db
      .insert(auditLog)
      .values([
        request(1, 200, "key_a"),
        request(2, 404, "key_a"),
        request(3, 401, "key_b"),
        request(4, 200, null, "pbc_app"),
        request(5, 500, "key_b"),
      ]);
    await recordAdminAction(db, {
      workspaceId: workspace.id,
      action: "api_key.created",
      actor: "usr_1",
      target: "key_b",
    });
    return workspace;
  }

  it("filters by credential, status (exact or class), kind and time; pages newest first", async () => {
    const { db } = storage();
    const { id: workspaceId } = await seed();
    const ids = async (filter: Omit<Parameters<typeof listAuditLog>[1], "workspaceId">) =>
      (await listAuditLog(db, { workspaceId, ...filter }, { limit: 100 })).entries.map(
        (entry) => entry.requestId ?? entry.action,
      );
    expect(await ids({ credential: "key_a" })).toEqual(["req_2", "req_1"]);
    expect(await ids({ credential: "pbc_app" })).toEqual(["req_4"]);
    expect(await ids({ status: 200, kind: "requests" })).toEqual(["req_4", "req_1"]);
    expect(await ids({ status: "4xx" })).toEqual(["req_3", "req_2"]);
    expect(await ids({ kind: "actions" })).toEqual(["api_key.created"]);
    expect(await ids({ kind: "requests", from: new Date(T0 + 2000), to: new Date(T0 + 4000) })).toEqual([
      "req_3",
      "req_2",
    ]);

    const first = await listAuditLog(db, { workspaceId, kind: "requests" }, { limit: 2 });
    expect(first.entries.map((entry) => entry.requestId)).toEqual(["req_5", "req_4"]);
    const second = await listAuditLog(db, { workspaceId, kind: "requests" }, { limit: 2, after: first.next! });
    const third = await listAuditLog(db, { workspaceId, kind: "requests" }, { limit: 2, after: second.next! });
    expect([...second.entries, ...third.entries].map((entry) => entry.requestId)).toEqual(["req_3", "req_2", "req_1"]);
    expect(third.next).toBeUndefined();

    const all = [];
    for await (const entry of eachAuditEntry(db, { workspaceId }, 2)) all.push(entry);
    expect(all).toHaveLength(6);
  });

  it("writes CSV a spreadsheet cannot be tricked by", async () => {
    const { db } = storage();
    const { id: workspaceId } = await seed();
    const [row] = (await listAuditLog(db, { workspaceId, credential: "key_a" }, { limit: 1 })).entries;
    expect(AUDIT_CSV_HEADER).toBe(
      "occurred_at,kind,actor,action,target,key_id,client_id,method,path,status,ip,user_agent,request_id,latency_ms,count,tool\r\n",
    );
    expect(auditCsvLine(row!)).toBe(
      "2026-11-23T12:00:02.000Z,request,,,,key_a,,GET,/v1/projects,404,127.0.0.1,test,req_2,1,1,\r\n",
    );
    expect(auditCsvLine({ ...row!, userAgent: '=HYPERLINK("http://evil"), "x"' })).toContain(
      `"'=HYPERLINK(""http://evil""), ""x"""`,
    );
  });
});
