import { describe, expect, it } from "vitest";
import { onEmbeddedDatabase, useStorage } from "../../test/support/database.ts";
import { ConflictError, ForbiddenError, InvalidInputError } from "./errors.ts";
import {
  addMember,
  changeRole,
  effectiveScopes,
  listMembers,
  membershipBySlug,
  membershipsOf,
  roleScopes,
} from "./members.ts";
import {
  DEFAULT_SCRYPT_COST,
  hashPassword,
  passwordProblem,
  setPasswordHashCost,
  verifyPassword,
} from "./passwords.ts";
import { createWorkspace } from "./workspaces.ts";

describe("passwords", () => {
  it("hash with a random salt and verify; a wrong password or a malformed hash does not verify", async () => {
    const first = await hashPassword("correct horse battery");
    const second = await hashPassword("correct horse battery");
    // The cost the suites set (test/support/setup.ts), stored with the hash; the default is OWASP's.
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(DEFAULT_SCRYPT_COST).toEqual({ N: 32768, r: 8, p: 3 });
    const owaspCost = await (async () => {
      setPasswordHashCost(DEFAULT_SCRYPT_COST);
      try {
        return await hashPassword("correct horse battery");
      } finally {
        setPasswordHashCost({ N: 1024, r: 8, p: 1 });
      }
    })();
    expect(owaspCost).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(await verifyPassword("correct horse battery", owaspCost)).toBe(true);
    expect(first).not.toBe(second);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse batterY", first)).toBe(false);
    expect(await verifyPassword("correct horse battery", "md5$abc")).toBe(false);
  });

  it("new passwords: 12 to 1024 characters, no NUL", () => {
    expect(passwordProblem("short")).toMatch(/at least 12/);
    expect(passwordProblem("x".repeat(1025))).toMatch(/at most 1024/);
    expect(passwordProblem("twelve chars\u0000")).toMatch(/NUL/);
    expect(passwordProblem("twelve chars")).toBeUndefined();
  });
});

describe("what a role may do through the API", () => {
  it("owners and admins: everything; members: all but webhooks:write and billing:read", () => {
    expect(roleScopes("owner")).toEqual(["*"]);
    expect(roleScopes("admin")).toEqual(["*"]);
    expect(roleScopes("member")).not.toContain("webhooks:write");
    expect(roleScopes("member")).not.toContain("billing:read");
    expect(roleScopes("member")).toContain("projects:write");
  });

  it("narrows granted scopes to the role", () => {
    expect(effectiveScopes(["*"], "admin")).toEqual(["*"]);
    expect(effectiveScopes(["*"], "member")).toEqual(roleScopes("member"));
    expect(effectiveScopes(["projects:read", "billing:read"], "member")).toEqual(["projects:read"]);
    expect(effectiveScopes(["projects:read", "billing:read"], "owner")).toEqual(["projects:read", "billing:read"]);
  });
});

onEmbeddedDatabase("members", (driver) => {
  const storage = useStorage(driver);
  const password = "a long enough password";

  it("one user per email across workspaces, each membership with its role", async () => {
    const { db } = storage();
    const acme = await createWorkspace(db, { slug: "acme" });
    const beta = await createWorkspace(db, { slug: "beta", name: "beta" });
    const first = await addMember(db, { workspaceId: acme.id, email: " Ana@Example.COM ", role: "owner", password });
    expect(first).toMatchObject({ userCreated: true, user: { email: "ana@example.com" } });
    const second = await addMember(db, { workspaceId: beta.id, email: "ana@example.com", role: "member" });
    expect(second).toMatchObject({ userCreated: false, user: { id: first.user.id } });
    expect((await membershipsOf(db, first.user.id)).map((m) => [m.workspace.slug, m.role])).toEqual([
      ["acme", "owner"],
      ["beta", "member"],
    ]);
    expect(await membershipBySlug(db, first.user.id, "beta")).toMatchObject({ role: "member" });
    expect(await membershipBySlug(db, first.user.id, "nope")).toBeUndefined();
    await expect(addMember(db, { workspaceId: acme.id, email: "ana@example.com", role: "admin" })).rejects.toThrow(
      ConflictError,
    );
    await expect(addMember(db, { workspaceId: acme.id, email: "new@example.com", role: "admin" })).rejects.toThrow(
      /give a password/,
    );
    await expect(
      addMember(db, { workspaceId: acme.id, email: "not an email", role: "admin", password }),
    ).rejects.toThrow(InvalidInputError);
    // In the console the adder's role counts: admins add admins and members, only owners add owners.
    await expect(
      addMember(db, { workspaceId: acme.id, email: "o2@example.com", role: "owner", password, actorRole: "admin" }),
    ).rejects.toThrow(/Only an owner/);
    await expect(
      addMember(db, { workspaceId: acme.id, email: "m2@example.com", role: "member", password, actorRole: "member" }),
    ).rejects.toThrow(ForbiddenError);
    expect(
      await addMember(db, {
        workspaceId: acme.id,
        email: "a2@example.com",
        role: "admin",
        password,
        actorRole: "admin",
      }),
    ).toMatchObject({ role: "admin" });
  });

  it("role changes: admins manage members, only owners make owners, the last owner stays", async () => {
    const { db } = storage();
    const acme = await createWorkspace(db, { slug: "acme" });
    const owner = (await addMember(db, { workspaceId: acme.id, email: "owner@example.com", role: "owner", password }))
      .user;
    const admin = (await addMember(db, { workspaceId: acme.id, email: "admin@example.com", role: "admin", password }))
      .user;
    const member = (
      await addMember(db, { workspaceId: acme.id, email: "member@example.com", role: "member", password })
    ).user;
    const change = (
      actorRole: "owner" | "admin" | "member",
      userId: string,
      role: "owner" | "admin" | "member" | null,
    ) => db.transaction((tx) => changeRole(tx, { workspaceId: acme.id, actorRole, userId, role }));

    await expect(change("member", admin.id, "member")).rejects.toThrow(ForbiddenError);
    await expect(change("admin", member.id, "owner")).rejects.toThrow(/Only an owner/);
    await expect(change("admin", owner.id, "member")).rejects.toThrow(/Only an owner/);
    await expect(change("owner", owner.id, "admin")).rejects.toThrow(/at least one owner/);
    await expect(change("owner", owner.id, null)).rejects.toThrow(/at least one owner/);
    expect(await change("admin", member.id, "admin")).toMatchObject({ role: "admin" });
    expect(await change("owner", admin.id, "owner")).toMatchObject({ role: "owner" });
    expect(await change("owner", owner.id, null)).toBeUndefined(); // another owner remains
    expect((await listMembers(db, acme.id)).map((m) => [m.email, m.role])).toEqual([
      ["admin@example.com", "owner"],
      ["member@example.com", "admin"],
    ]);
  });
});
