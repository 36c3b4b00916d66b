// The authorization endpoint (RFC 6749 §4.1.1–4.1.2, PKCE per RFC 7636): GET shows the pages, the
// consent form POSTs back here. Written by hand (see index.ts for why).
//
// Order of checks, on GET and again on the POST (nothing from the page is trusted):
// 1. client_id and redirect_uri: an unknown client or a redirect URI not registered for it, exactly,
//    is an error page (400) — never a redirect, so nothing is sent to an unverified address;
// 2. the other parameters: once the redirect URI is known good, a wrong one is answered there
//    (§4.1.2.1: invalid_request, unsupported_response_type, invalid_scope), with `state`;
// 3. the person: sign-in (the console's page, back here through `next`), then the workspace (a
//    chooser when they belong to several), then consent: scopes in words, narrowed to their role.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { recordAdminAction } from "../domain/audit-log.ts";
import { scopes as knownScopes, type Scope } from "../domain/keys.ts";
import { membershipBySlug, membershipsOf, type Membership } from "../domain/members.ts";
import { findOAuthClient, isPublicClient, type OAuthClient } from "../domain/oauth-clients.ts";
import { createAuthorization, grantableScopes } from "../domain/oauth.ts";
import type { Database } from "../storage/index.ts";
import { FormError, readForm } from "../pages/forms.ts";
import type { Html } from "../html/template.ts";
import { signInPath } from "../pages/redirect.ts";
import { redirect, sendPage } from "../pages/respond.ts";
import { requireCsrf } from "../pages/csrf.ts";
import type { PageDeps } from "../pages/deps.ts";
import { visitor, type Visitor } from "../pages/visitor.ts";
import { chooserPage, consentPage, errorPage, noWorkspacePage, type CarriedParameters } from "./pages.ts";

export interface AuthorizeDeps {
  readonly pages: PageDeps;
  readonly db: Database;
  readonly logger: Logger;
  readonly issuer: string;
}

/** The parameters of an authorization request that the pages carry from step to step. */
const REQUEST_PARAMETERS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
] as const;

const MAX_SCOPE_LENGTH = 1000;
const MAX_STATE_LENGTH = 500;
/** RFC 7636 §4.1/§4.2: 43–128 unreserved characters. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
/** RFC 6749 Appendix A: VSCHAR. */
const VSCHAR = /^[\x20-\x7e]+$/;

export interface AuthorizationRequest {
  readonly client: OAuthClient;
  readonly redirectUri: string;
  readonly state: string | undefined;
  /** Known scopes, deduplicated; `*` alone when asked for. */
  readonly scopes: Scope[];
  readonly codeChallenge: string | undefined;
  readonly codeChallengeMethod: "S256" | undefined;
  /** The validated parameters, for the pages' forms. */
  readonly parameters: CarriedParameters;
}

export type ParsedRequest =
  | { readonly outcome: "page"; readonly reason: string }
  | {
      readonly outcome: "redirect";
      readonly redirectUri: string;
      readonly error: string;
      readonly description: string;
      readonly state: string | undefined;
    }
  | { readonly outcome: "valid"; readonly request: AuthorizationRequest };

/** Parses and checks an authorization request (a query on GET, the form on POST). */
export async function parseAuthorizationRequest(db: Database, parameters: URLSearchParams): Promise<ParsedRequest> {
  const single = (name: string): string | undefined | null => {
    const values = parameters.getAll(name);
    if (values.length > 1) return null; // repeated: RFC 6749 §3.1
    return values[0] === "" ? undefined : values[0];
  };
  /** A parameter known not to be repeated (checked below, before it is read with this). */
  const value = (name: string): string | undefined => single(name) ?? undefined;
  const clientId = single("client_id");
  if (clientId === null) return { outcome: "page", reason: "The request names more than one application (client_id)." };
  if (!clientId)
    return { outcome: "page", reason: "The request does not say which application is asking (client_id is missing)." };
  const client = await findOAuthClient(db, clientId);
  if (!client)
    return { outcome: "page", reason: "The application asking for access is not registered here (unknown client_id)." };
  const redirectUri = single("redirect_uri");
  if (redirectUri === null) return { outcome: "page", reason: "The request gives more than one redirect_uri." };
  if (!redirectUri)
    return { outcome: "page", reason: `${client.name} did not say where to send you back (redirect_uri is missing).` };
  if (!client.redirectUris.includes(redirectUri)) {
    return {
      outcome: "page",
      reason: `The address ${client.name} wants to send you back to is not one registered for it (redirect_uri).`,
    };
  }

  const refuse = (error: string, description: string, state?: string): ParsedRequest => ({
    outcome: "redirect",
    redirectUri,
    error,
    description,
    state,
  });
  const state = single("state");
  if (state === null) return refuse("invalid_request", "state was given more than once");
  if (state !== undefined && (state.length > MAX_STATE_LENGTH || !VSCHAR.test(state))) {
    return refuse("invalid_request", `state must be at most ${MAX_STATE_LENGTH} printable ASCII characters`);
  }
  for (const name of ["response_type", "scope", "code_challenge", "code_challenge_method"]) {
    if (single(name) === null) return refuse("invalid_request", `${name} was given more than once`, state);
  }
  const responseType = value("response_type");
  if (!responseType) return refuse("invalid_request", "response_type is missing: send response_type=code", state);
  if (responseType !== "code")
    return refuse("unsupported_response_type", "only response_type=code is supported", state);

  const scope = value("scope");
  if (!scope)
    return refuse("invalid_scope", "scope is missing: ask for one or more scopes, joined by spaces or +", state);
  if (scope.length > MAX_SCOPE_LENGTH)
    return refuse("invalid_scope", `scope must be at most ${MAX_SCOPE_LENGTH} characters`, state);
  const requested = [...new Set(scope.split(/[\s+]+/).filter(Boolean))];
  const unknown = requested.filter((name) => !(knownScopes as readonly string[]).includes(name));
  if (requested.length === 0) return refuse("invalid_scope", "scope is empty", state);
  if (unknown.length > 0)
    return refuse(
      "invalid_scope",
      `unknown scope ${unknown.join(" ").slice(0, 200)}`.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "?"),
      state,
    );
  const scopes = (requested.includes("*") ? ["*"] : requested) as Scope[];

  const codeChallenge = value("code_challenge");
  const method = value("code_challenge_method");
  if (method !== undefined && method !== "S256")
    return refuse("invalid_request", "code_challenge_method must be S256 (plain is not supported)", state);
  if (codeChallenge !== undefined && method === undefined)
    return refuse("invalid_request", "send code_challenge_method=S256 with code_challenge", state);
  if (codeChallenge === undefined && method !== undefined)
    return refuse("invalid_request", "code_challenge_method was given without code_challenge", state);
  if (codeChallenge !== undefined && !PKCE_VALUE.test(codeChallenge))
    return refuse("invalid_request", "code_challenge must be 43-128 characters of A-Z a-z 0-9 - . _ ~", state);
  if (codeChallenge === undefined && isPublicClient(client)) {
    return refuse(
      "invalid_request",
      "PKCE is required for this client: send code_challenge and code_challenge_method=S256",
      state,
    );
  }

  const carried: [string, string][] = [];
  for (const name of REQUEST_PARAMETERS) {
    const given = value(name);
    if (given) carried.push([name, given]);
  }
  return {
    outcome: "valid",
    request: {
      client,
      redirectUri,
      state,
      scopes,
      codeChallenge,
      codeChallengeMethod: codeChallenge ? "S256" : undefined,
      parameters: carried,
    },
  };
}

/** The redirect URI with the answer's parameters added to its query (an existing query is kept, RFC 6749 §3.1.2). */
export function redirectUriWith(redirectUri: string, fields: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) query.append(name, value);
  const separator = !redirectUri.includes("?") ? "?" : /[?&]$/.test(redirectUri) ? "" : "&";
  return `${redirectUri}${separator}${query.toString()}`;
}

/** The CSP source that lets a form on the page end on the redirect URI: its origin, or a private-use scheme. */
export function formTarget(redirectUri: string): string {
  const uri = new URL(redirectUri);
  return uri.origin !== "null" ? uri.origin : uri.protocol;
}

export function createAuthorizationEndpoint(deps: AuthorizeDeps) {
  /** An answer sent to the application, at its (verified) redirect URI. */
  function answer(
    response: ServerResponse,
    redirectUri: string,
    fields: Record<string, string | undefined>,
    status: 302 | 303,
  ): void {
    redirect(response, redirectUriWith(redirectUri, { ...fields, iss: deps.issuer }), status);
  }

  function page(response: ServerResponse, status: number, body: Html, request?: AuthorizationRequest): void {
    sendPage(response, status, body, request ? { formTargets: [formTarget(request.redirectUri)] } : {});
  }

  /**
   * An error page for a request refused before anything happened (an unknown client or redirect URI,
   * a forged or stale form, a workspace not the member's), and its audit row: nobody's workspace
   * when none is known yet, so operators still see the attempts.
   */
  async function refuse(
    request: IncomingMessage,
    response: ServerResponse,
    refusal: { status: number; body: Html; requestId: string; clientId?: string | null; userId?: string },
  ): Promise<void> {
    page(response, refusal.status, refusal.body);
    await recordAdminAction(deps.db, {
      workspaceId: null,
      action: "oauth_authorize.refused",
      actor: refusal.userId ?? "anonymous",
      target: refusal.clientId ?? "/oauth/authorize",
      request: {
        requestId: refusal.requestId,
        method: request.method ?? "GET",
        path: "/oauth/authorize",
        status: refusal.status,
        ip: deps.pages.clientAddress(request),
        userAgent: request.headers["user-agent"] ?? null,
      },
    });
  }

  async function show(request: IncomingMessage, response: ServerResponse, url: URL, requestId: string): Promise<void> {
    const parsed = await parseAuthorizationRequest(deps.db, url.searchParams);
    if (parsed.outcome === "page") {
      return refuse(request, response, {
        status: 400,
        body: errorPage(parsed.reason),
        requestId,
        clientId: url.searchParams.get("client_id")?.slice(0, 100),
      });
    }
    if (parsed.outcome === "redirect") {
      return answer(
        response,
        parsed.redirectUri,
        { error: parsed.error, error_description: parsed.description, state: parsed.state },
        302,
      );
    }
    const authorization = parsed.request;
    const who = await visitor(deps.pages, request, response);
    if (!who.user) return redirect(response, signInPath(url.pathname + url.search), 302);
    const memberships = await membershipsOf(deps.db, who.user.id);
    const base = {
      user: who.user,
      csrf: who.csrf,
      clientName: authorization.client.name,
      parameters: authorization.parameters,
      redirectUri: authorization.redirectUri,
    };
    if (memberships.length === 0) return page(response, 200, noWorkspacePage(base), authorization);
    const slug = url.searchParams.get("workspace");
    const chosen =
      memberships.length === 1 && !slug
        ? memberships[0]
        : memberships.find((membership) => membership.workspace.slug === slug);
    if (!chosen) {
      const notice = slug ? "You are not a member of that workspace; choose one of yours." : undefined;
      return page(response, 200, chooserPage({ ...base, memberships, notice }), authorization);
    }
    page(
      response,
      200,
      consent(who, authorization, chosen, memberships.length > 1 ? chooseAnotherUrl(url) : undefined),
      authorization,
    );
  }

  function consent(
    who: Visitor,
    authorization: AuthorizationRequest,
    membership: Membership,
    chooseAnother: string | undefined,
  ): Html {
    const granted = grantableScopes(authorization.scopes, membership.role);
    return consentPage({
      user: who.user!,
      csrf: who.csrf,
      clientName: authorization.client.name,
      workspace: membership.workspace,
      role: membership.role,
      granted,
      withheld: withheldScopes(authorization.scopes, granted),
      parameters: authorization.parameters,
      redirectUri: authorization.redirectUri,
      chooseAnother,
    });
  }

  async function decide(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    let form: URLSearchParams;
    try {
      form = await readForm(request);
    } catch (error) {
      if (error instanceof FormError)
        return refuse(request, response, { status: error.status, body: errorPage(error.message, "form"), requestId });
      throw error;
    }
    const who = await visitor(deps.pages, request, response);
    const parsed = await parseAuthorizationRequest(deps.db, form);
    if (parsed.outcome === "page") {
      const clientId = form.get("client_id")?.slice(0, 100);
      return refuse(request, response, {
        status: 400,
        body: errorPage(parsed.reason),
        requestId,
        clientId,
        ...(who.user ? { userId: who.user.id } : {}),
      });
    }
    if (parsed.outcome === "redirect") {
      return answer(
        response,
        parsed.redirectUri,
        { error: parsed.error, error_description: parsed.description, state: parsed.state },
        303,
      );
    }
    const authorization = parsed.request;
    if (!who.user) {
      // Signed out meanwhile (the session ended): sign in again, then the request is shown afresh.
      return redirect(
        response,
        signInPath(
          `/oauth/authorize?${new URLSearchParams(authorization.parameters.map(([name, given]) => [name, given] as [string, string])).toString()}`,
        ),
        303,
      );
    }
    try {
      requireCsrf(deps.pages, request, who, form);
    } catch (error) {
      if (error instanceof FormError) {
        return refuse(request, response, {
          status: error.status,
          body: errorPage(error.message, "form"),
          requestId,
          clientId: authorization.client.id,
          userId: who.user.id,
        });
      }
      throw error;
    }
    const state = authorization.state;
    if (form.get("decision") !== "allow") {
      deps.logger.info(
        { client_id: authorization.client.id, user_id: who.user.id, request_id: requestId },
        "oauth authorization denied",
      );
      return answer(
        response,
        authorization.redirectUri,
        { error: "access_denied", error_description: "the member denied access", state },
        303,
      );
    }
    const membership = await membershipBySlug(deps.db, who.user.id, form.get("workspace") ?? "");
    if (!membership) {
      const body = errorPage("You are not a member of the workspace this form names.", "form");
      return refuse(request, response, {
        status: 400,
        body,
        requestId,
        clientId: authorization.client.id,
        userId: who.user.id,
      });
    }
    const granted = grantableScopes(authorization.scopes, membership.role);
    if (granted.length === 0) {
      return answer(
        response,
        authorization.redirectUri,
        { error: "invalid_scope", error_description: "the member's role allows none of the requested scopes", state },
        303,
      );
    }
    const code = await deps.db.transaction(async (tx) => {
      const created = await createAuthorization(tx, {
        clientId: authorization.client.id,
        workspaceId: membership.workspace.id,
        userId: who.user!.id,
        scopes: granted,
        redirectUri: authorization.redirectUri,
        codeChallenge: authorization.codeChallenge,
        codeChallengeMethod: authorization.codeChallengeMethod,
      });
      await recordAdminAction(tx, {
        workspaceId: membership.workspace.id,
        action: "oauth_app.authorized",
        actor: who.user!.id,
        target: authorization.client.id,
        request: {
          requestId,
          method: "POST",
          path: "/oauth/authorize",
          status: 303,
          ip: deps.pages.clientAddress(request),
          userAgent: request.headers["user-agent"] ?? null,
        },
      });
      return created.code;
    });
    deps.logger.info(
      { client_id: authorization.client.id, workspace_id: membership.workspace.id, request_id: requestId },
      "oauth authorization granted",
    );
    answer(response, authorization.redirectUri, { code, state }, 303);
  }

  return async function authorize(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    requestId: string,
  ): Promise<void> {
    if (request.method === "GET" || request.method === "HEAD") return show(request, response, url, requestId);
    if (request.method === "POST") return decide(request, response, requestId);
    response
      .writeHead(405, { Allow: "GET, POST", "Content-Type": "text/plain; charset=utf-8" })
      .end("Method not allowed.");
  };
}

/** What was asked for but not granted, for the consent page. */
function withheldScopes(requested: readonly Scope[], granted: readonly Scope[]): Scope[] {
  if (granted.includes("*")) return [];
  if (requested.includes("*")) return knownScopes.filter((scope) => scope !== "*" && !granted.includes(scope));
  return requested.filter((scope) => !granted.includes(scope));
}

/** The same request without its chosen workspace: the chooser. */
function chooseAnotherUrl(url: URL): string {
  const parameters = new URLSearchParams(url.searchParams);
  parameters.delete("workspace");
  return `${url.pathname}?${parameters.toString()}`;
}
