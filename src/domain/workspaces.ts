// Workspaces: the tenant every key and resource belongs to. Created by operators through `pbs`.
import { eq } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { plans, workspaces, type Plan, type Workspace } from "../storage/schema.ts";
import { ConflictError, InvalidInputError } from "./errors.ts";

export type { Workspace };

/** As the contract's Workspace.slug: lowercase letters, digits and dashes, 1–64 characters. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface NewWorkspace {
  readonly slug: string;
  /** Defaults to the slug. */
  readonly name?: string;
  readonly plan?: Plan;
}

/** Creates a workspace; a slug already taken is a ConflictError. */
export async function createWorkspace(db: Queryable, input: NewWorkspace): Promise<Workspace> {
  const [created] = await db
    .insert(workspaces)
    .values(validWorkspace(input))
    .onConflictDoNothing({ target: workspaces.slug })
    .returning();
  if (!created) throw new ConflictError(`a workspace with slug "${input.slug}" already exists`, "slug");
  return created;
}

/**
 * The workspace with this slug, created (with `name` and `plan`) when there is none. Safe under
 * concurrency: two callers creating the same slug get the same workspace.
 */
export async function ensureWorkspace(
  db: Queryable,
  input: NewWorkspace,
): Promise<{ workspace: Workspace; created: boolean }> {
  const values = validWorkspace(input);
  const [created] = await db
    .insert(workspaces)
    .values(values)
    .onConflictDoNothing({ target: workspaces.slug })
    .returning();
  if (created) return { workspace: created, created: true };
  const existing = await findWorkspaceBySlug(db, values.slug);
  if (!existing) throw new Error(`workspace "${values.slug}" vanished while being created`); // workspaces are never deleted
  return { workspace: existing, created: false };
}

export async function findWorkspaceBySlug(db: Queryable, slug: string): Promise<Workspace | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.slug, slug)).limit(1);
  return row;
}

function validWorkspace(input: NewWorkspace) {
  if (!SLUG.test(input.slug)) {
    throw new InvalidInputError(
      "the slug must be 1–64 lowercase letters, digits and dashes, not starting with a dash",
      "slug",
    );
  }
  const name = (input.name ?? input.slug).trim();
  if (name.length < 1 || name.length > 100) throw new InvalidInputError("the name must be 1–100 characters", "name");
  const plan = input.plan ?? "free";
  if (!plans.includes(plan)) throw new InvalidInputError(`the plan must be one of ${plans.join(", ")}`, "plan");
  return { id: newId("ws"), slug: input.slug, name, plan };
}
