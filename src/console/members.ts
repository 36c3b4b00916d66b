// Members: who belongs to the workspace and with what role; owners and admins add people (creating
// their sign-in when the email is new), change roles and remove people. The rules (only owners make
// owners, the last owner stays) are the domain's (src/domain/members.ts), shown here as messages.
import { InvalidInputError } from "../domain/errors.ts";
import {
  addMember,
  administers,
  changeRole,
  listMembers,
  memberRoles,
  type MemberRecord,
  type MemberRole,
} from "../domain/members.ts";
import { MIN_PASSWORD_LENGTH } from "../domain/passwords.ts";
import { html, type Html } from "../html/template.ts";
import { redirect } from "../pages/respond.ts";
import { recordAction, recordRefusal, sendConsolePage, sendErrorPage, type WorkspaceContext } from "./context.ts";
import type { WorkspaceRoute } from "./routes.ts";
import { domainFailure } from "../http/errors.ts";
import { confirmForm, describedBy, fieldError, message, sentence, table, time } from "./layout.ts";
import { csrfField } from "../pages/csrf.ts";

const ROLE_LABELS: Record<MemberRole, string> = {
  owner: "Owner: everything, including owners",
  admin: "Admin: keys, webhooks, members and apps",
  member: "Member: reads settings",
};

const NOTICES: Record<string, string> = {
  added: "The member was added. They sign in at /settings with their email address.",
  changed: "The role was changed. It applies at once, to the member's apps too.",
  removed: "The member was removed from this workspace.",
};

interface MembersState {
  readonly status: number;
  /** A refused addition: the values sent and the error by field. */
  readonly add?: { values: URLSearchParams; error: { field: string; message: string } };
  /** A refused role change or removal. */
  readonly error?: string;
}

/** Roles the actor may give: only an owner makes owners. */
function rolesFor(actor: MemberRole): readonly MemberRole[] {
  return actor === "owner" ? memberRoles : memberRoles.filter((role) => role !== "owner");
}

async function membersPage(ctx: WorkspaceContext, state: MembersState): Promise<void> {
  const members = await listMembers(ctx.deps.db, ctx.workspace.id);
  const admin = administers(ctx.role);
  const notice = NOTICES[ctx.url.searchParams.get("notice") ?? ""];
  sendConsolePage(ctx, state.status, {
    title: "Members",
    section: "members",
    body: html`${notice ? message("notice", notice) : ""}
${state.error ? message("error", state.error) : ""}
${table({
  caption: "People in this workspace",
  columns: ["Email", "Role", "Member since", ...(admin ? ["Change role", "Remove"] : [])],
  rows: members.map((member) => memberRow(ctx, member, admin)),
  empty: "No members.",
})}
${admin ? addForm(ctx, state) : html`<p class="hint">Only owners and admins of the workspace can add people or change roles. Your role is ${ctx.role}.</p>`}`,
  });
}

function memberRow(ctx: WorkspaceContext, member: MemberRecord, admin: boolean): Html {
  const you = member.userId === ctx.user.id;
  const changeable = admin && (ctx.role === "owner" || member.role !== "owner");
  const selectId = `role-${member.userId}`;
  return html`<tr>
<th scope="row">${member.email}${you ? html` <span class="meta">(you)</span>` : ""}</th>
<td>${member.role}</td>
<td>${time(member.createdAt)}</td>
${
  admin
    ? changeable
      ? html`<td><form method="post" action="${ctx.base}/members/${member.userId}/role" class="inline-form">
${csrfField(ctx.visitor.csrf)}
<label for="${selectId}" class="visually-hidden">Role of ${member.email}</label>
<select id="${selectId}" name="role">${rolesFor(ctx.role).map((role) => html`<option value="${role}"${role === member.role ? html` selected` : ""}>${role}</option>`)}</select>
<button type="submit">Change<span class="visually-hidden"> role of ${member.email}</span></button>
</form></td>
<td><a href="${ctx.base}/members/${member.userId}/remove">Remove<span class="visually-hidden"> ${member.email}</span></a></td>`
      : html`<td colspan="2"><span class="meta">Only an owner can change an owner.</span></td>`
    : ""
}
</tr>`;
}

function addForm(ctx: WorkspaceContext, state: MembersState): Html {
  const values = state.add?.values;
  const errorOf = (field: string) => (state.add?.error.field === field ? state.add.error.message : undefined);
  const chosen = values?.get("role") ?? "member";
  return html`<section class="panel" aria-labelledby="add-member-heading">
<h2 id="add-member-heading">Add a member</h2>
${state.add ? message("error", html`The member was not added: ${state.add.error.message}`) : ""}
<form method="post" action="${ctx.base}/members" class="stack">
${csrfField(ctx.visitor.csrf)}
<div class="field">
<label for="member-email">Email address</label>
<input id="member-email" name="email" type="email" required maxlength="320" autocomplete="off" value="${values?.get("email") ?? ""}"${describedBy("member-email", errorOf("email"))}>
${fieldError("member-email", errorOf("email"))}
</div>
<fieldset${describedBy("member-role", errorOf("role"))}>
<legend>Role</legend>
${rolesFor(ctx.role).map(
  (role) =>
    html`<div class="choice"><input type="radio" id="member-role-${role}" name="role" value="${role}"${role === chosen ? html` checked` : ""}> <label for="member-role-${role}">${ROLE_LABELS[role]}</label></div>`,
)}
${fieldError("member-role", errorOf("role"))}
</fieldset>
<div class="field">
<label for="member-password">Initial password <span class="optional">(for a new account)</span></label>
<input id="member-password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="1024"${describedBy("member-password", errorOf("password"), true)}>
<p class="hint" id="member-password-hint">Needed only when the email has no account yet: at least ${MIN_PASSWORD_LENGTH} characters. Give it to the person over a safe channel. Someone who already has an account keeps their password.</p>
${fieldError("member-password", errorOf("password"))}
</div>
<div class="actions"><button type="submit" class="primary">Add member</button></div>
</form>
</section>`;
}

async function add(ctx: WorkspaceContext, _params: string[], form: URLSearchParams): Promise<void> {
  const role = (form.get("role") ?? "") as MemberRole;
  const password = form.get("password") ?? "";
  try {
    await ctx.deps.db.transaction(async (tx) => {
      const added = await addMember(tx, {
        workspaceId: ctx.workspace.id,
        email: form.get("email") ?? "",
        role,
        actorRole: ctx.role,
        ...(password ? { password } : {}),
      });
      await recordAction(tx, ctx, "member.added", added.user.id, 303);
    });
    redirect(ctx.response, `${ctx.base}/members?notice=added`);
  } catch (error) {
    const failure = domainFailure(error);
    if (!failure) throw error;
    if (failure.code === "forbidden") await recordRefusal(ctx, 403, ctx.workspace.id);
    // A refused input names its field (the email when it names none); any other refusal is the role's.
    const field = ["invalid_request", "conflict"].includes(failure.code) ? (failure.param ?? "email") : "role";
    await membersPage(ctx, {
      status: failure.status,
      add: { values: form, error: { field, message: sentence(failure.message) } },
    });
  }
}

async function setRole(ctx: WorkspaceContext, [userId]: string[], form: URLSearchParams): Promise<void> {
  const role = form.get("role") as MemberRole | null;
  if (!role || !memberRoles.includes(role))
    throw new InvalidInputError(`the role must be one of ${memberRoles.join(", ")}`, "role");
  await change(ctx, userId!, role);
}

async function remove(ctx: WorkspaceContext, [userId]: string[]): Promise<void> {
  await change(ctx, userId!, null);
}

/** A role change or removal, with its audit row, in one transaction; the domain's refusals become messages. */
async function change(ctx: WorkspaceContext, userId: string, role: MemberRole | null): Promise<void> {
  try {
    await ctx.deps.db.transaction(async (tx) => {
      await changeRole(tx, { workspaceId: ctx.workspace.id, actorRole: ctx.role, userId, role });
      await recordAction(tx, ctx, role === null ? "member.removed" : "member.role_changed", userId, 303);
    });
  } catch (error) {
    const failure = domainFailure(error);
    if (!failure) throw error;
    if (failure.code === "forbidden") await recordRefusal(ctx, 403, ctx.workspace.id);
    return membersPage(ctx, { status: failure.status, error: `${sentence(failure.message)} Nothing was changed.` });
  }
  // Removing or demoting oneself may end one's access to this page.
  if (userId === ctx.user.id && (role === null || !administers(role)))
    return redirect(ctx.response, role === null ? "/settings" : `${ctx.base}/members?notice=changed`);
  redirect(ctx.response, `${ctx.base}/members?notice=${role === null ? "removed" : "changed"}`);
}

async function confirmRemove(ctx: WorkspaceContext, [userId]: string[]): Promise<void> {
  const member = (await listMembers(ctx.deps.db, ctx.workspace.id)).find((entry) => entry.userId === userId);
  const back = { href: `${ctx.base}/members`, label: "Back to members" };
  if (!member) return sendErrorPage(ctx, 404, "There is no such member in this workspace.", { back });
  if (!administers(ctx.role))
    return sendErrorPage(ctx, 403, `Only a workspace owner or admin can remove members. Your role is ${ctx.role}.`, {
      back,
    });
  const you = member.userId === ctx.user.id;
  sendConsolePage(ctx, 200, {
    title: "Remove member",
    heading: you ? "Leave this workspace?" : `Remove ${member.email}?`,
    section: "members",
    body: html`<p>${you ? "You" : member.email} (${member.role}) will no longer sign in to this workspace's settings, and apps ${you ? "you" : "they"} authorized stop acting for ${you ? "you" : "them"} here. API keys ${you ? "you" : "they"} created keep working until revoked.</p>
${confirmForm({ action: `${ctx.base}/members/${member.userId}/remove`, csrf: ctx.visitor.csrf, button: you ? "Leave workspace" : "Remove member", cancel: `${ctx.base}/members` })}`,
  });
}

const USER = "(usr_[A-Za-z0-9]{1,64})";

export const memberRoutes: WorkspaceRoute[] = [
  { method: "GET", path: /^\/members$/, handle: (ctx) => membersPage(ctx, { status: 200 }) },
  { method: "POST", path: /^\/members$/, admin: "add members", handle: add },
  { method: "POST", path: new RegExp(`^/members/${USER}/role$`), admin: "change members' roles", handle: setRole },
  { method: "GET", path: new RegExp(`^/members/${USER}/remove$`), handle: confirmRemove },
  { method: "POST", path: new RegExp(`^/members/${USER}/remove$`), admin: "remove members", handle: remove },
];
