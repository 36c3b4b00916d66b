// Workspace members: people who sign in to the settings console, each with a role per workspace.
//
// - One user per email address, across the service; a user may belong to several workspaces.
// - Roles: `owner` and `admin` administer the workspace (keys, webhooks, members, connected apps);
//   `member` reads the console and may consent to applications acting within its own reach. A
//   workspace always keeps at least one owner.
// - What a role may do through the API bounds the scopes of the OAuth tokens its members grant
//   (`roleScopes`), checked on every request so a demotion or removal takes effect at once.
import { and, asc, count, eq } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import {
  memberRoles,
  memberships,
  users,
  workspaces,
  type MemberRole,
  type User,
  type Workspace,
} from "../storage/schema.ts";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "./errors.ts";
import { scopes, type Scope } from "./keys.ts";
import { hashPassword, passwordProblem } from "./passwords.ts";

export { memberRoles, type MemberRole, type User };

// eslint-disable-next-line no-control-regex -- a NUL is refused on purpose
const EMAIL = /^[^\s@\u0000]{1,64}@[^\s@\u0000]{1,255}$/;

export function normalEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (value.length > 320 || !EMAIL.test(value))
    throw new InvalidInputError("enter an email address such as ana@example.com", "email");
  return value;
}

/** Roles that administer a workspace: create and revoke keys, change webhooks and members, revoke apps. */
export function administers(role: MemberRole): boolean {
  return role === "owner" || role === "admin";
}

/** What a member with `role` may do through the API (and so grant an application). */
export function roleScopes(role: MemberRole): readonly Scope[] {
  if (administers(role)) return ["*"];
  return scopes.filter((scope) => scope !== "*" && scope !== "webhooks:write" && scope !== "billing:read");
}

/** `granted` narrowed to what `role` allows: `*` expands to the role's scopes when the role has less. */
export function effectiveScopes(granted: readonly string[], role: MemberRole): Scope[] {
  const allowed = roleScopes(role);
  if (allowed.includes("*")) return granted as Scope[];
  if (granted.includes("*")) return [...allowed];
  return granted.filter((scope): scope is Scope => (allowed as readonly string[]).includes(scope));
}

export interface Membership {
  readonly workspace: Workspace;
  readonly role: MemberRole;
}

export interface NewMember {
  readonly workspaceId: string;
  readonly email: string;
  readonly role: MemberRole;
  /** Required when the email has no user yet; ignored (the person keeps their password) when it has. */
  readonly password?: string;
  /** The role of the member adding them; only owners add owners. Absent for the operator (`pbs`). */
  readonly actorRole?: MemberRole;
}

/**
 * Adds a person to a workspace, creating their user when the email is new. A person already in the
 * workspace is a ConflictError (change a role with `changeRole`).
 */
export async function addMember(
  db: Queryable,
  input: NewMember,
): Promise<{ user: User; role: MemberRole; userCreated: boolean }> {
  const email = normalEmail(input.email);
  if (!memberRoles.includes(input.role))
    throw new InvalidInputError(`the role must be one of ${memberRoles.join(", ")}`, "role");
  if (input.actorRole !== undefined) {
    requireAdministrator(input.actorRole, "add members");
    if (input.role === "owner" && input.actorRole !== "owner")
      throw new ForbiddenError("Only an owner can make or change an owner.");
  }
  let user = await findUserByEmail(db, email);
  let userCreated = false;
  if (!user) {
    if (input.password === undefined)
      throw new InvalidInputError(`${email} has no account yet: give a password for it`, "password");
    const problem = passwordProblem(input.password);
    if (problem) throw new InvalidInputError(problem, "password");
    const passwordHash = await hashPassword(input.password);
    [user] = await db
      .insert(users)
      .values({ id: newId("usr"), email, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    userCreated = user !== undefined;
    user ??= await findUserByEmail(db, email); // created meanwhile by a concurrent call
  }
  const [added] = await db
    .insert(memberships)
    .values({ workspaceId: input.workspaceId, userId: user!.id, role: input.role })
    .onConflictDoNothing()
    .returning();
  if (!added) throw new ConflictError(`${email} is already a member of this workspace`, "email");
  return { user: user!, role: input.role, userCreated };
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return user;
}

export async function findUser(db: Queryable, userId: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

/** The workspaces a user belongs to, by name. */
export async function membershipsOf(db: Queryable, userId: string): Promise<Membership[]> {
  const rows = await db
    .select({ workspace: workspaces, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.name), asc(workspaces.slug));
  return rows;
}

/** The user's role in the workspace with this slug; undefined when they do not belong to it (or it does not exist). */
export async function membershipBySlug(db: Queryable, userId: string, slug: string): Promise<Membership | undefined> {
  const [row] = await db
    .select({ workspace: workspaces, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.userId, userId), eq(workspaces.slug, slug)))
    .limit(1);
  return row;
}

export async function roleIn(db: Queryable, userId: string, workspaceId: string): Promise<MemberRole | undefined> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)))
    .limit(1);
  return row?.role;
}

export interface MemberRecord {
  readonly userId: string;
  readonly email: string;
  readonly role: MemberRole;
  readonly createdAt: Date;
}

export async function listMembers(db: Queryable, workspaceId: string): Promise<MemberRecord[]> {
  return db
    .select({ userId: users.id, email: users.email, role: memberships.role, createdAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(users.email));
}

/** Throws ForbiddenError unless `role` administers the workspace. */
export function requireAdministrator(role: MemberRole, action: string): void {
  if (!administers(role)) throw new ForbiddenError(`Only a workspace owner or admin can ${action}.`);
}

/**
 * Changes a member's role, or removes them (`role: null`). Only owners may make or unmake owners;
 * the last owner cannot be demoted or removed. Run it in a transaction: the owner count is read
 * under a lock on the workspace's memberships.
 */
export async function changeRole(
  db: Queryable,
  input: { workspaceId: string; actorRole: MemberRole; userId: string; role: MemberRole | null },
): Promise<MemberRecord | undefined> {
  requireAdministrator(input.actorRole, "change members");
  const current = await db
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.workspaceId, input.workspaceId))
    .for("update");
  const target = current.find((row) => row.userId === input.userId);
  if (!target) throw new NotFoundError("there is no such member in this workspace", "user_id");
  if ((target.role === "owner" || input.role === "owner") && input.actorRole !== "owner") {
    throw new ForbiddenError("Only an owner can make or change an owner.");
  }
  const owners = current.filter((row) => row.role === "owner").length;
  if (target.role === "owner" && input.role !== "owner" && owners <= 1) {
    throw new ConflictError("a workspace keeps at least one owner: make someone else owner first");
  }
  const where = and(eq(memberships.workspaceId, input.workspaceId), eq(memberships.userId, input.userId));
  if (input.role === null) {
    await db.delete(memberships).where(where);
    return undefined;
  }
  if (!memberRoles.includes(input.role))
    throw new InvalidInputError(`the role must be one of ${memberRoles.join(", ")}`, "role");
  await db.update(memberships).set({ role: input.role }).where(where);
  const [member] = (await listMembers(db, input.workspaceId)).filter((row) => row.userId === input.userId);
  return member;
}

export async function countOwners(db: Queryable, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ owners: count() })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, "owner")));
  return row?.owners ?? 0;
}
