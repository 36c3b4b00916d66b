// Where published apps are served, and who may see a private one. Each deployment has an origin of
// its own, `http://<label>.localhost:<APPS_PORT>/` by default or `https://<label>.<APPS_DOMAIN>/`
// behind a wildcard domain with TLS, never the API's origin: an app's scripts can then read no
// cookie or storage of the API or of another app.
//
// A private project's app is served only to holders of a signed, expiring token bound to the
// project: the `url` fields the API answers for such a project carry a fresh one
// (`?access_token=<expiry>.<signature>`), and the apps listener, having checked it, keeps it in a
// cookie of that app's origin so the page's own assets load without it.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { SchemaVisibility } from "../../generated/schema.d.ts";

export const ACCESS_TOKEN_PARAM = "access_token";
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;

export interface AppAccessOptions {
  /** Signs access tokens; every replica must share it. */
  readonly secret: string | Uint8Array;
  /** The wildcard domain apps are served under (https), or undefined for `<label>.localhost`. */
  readonly appsDomain: string | undefined;
  /**
   * The apps listener's port, for `http://<label>.localhost:<port>/`: read when an origin is made,
   * so it may be the port the listener bound (APPS_PORT=0 picks one).
   */
  readonly appsPort: () => number;
}

export interface AppAccess {
  /** The origin (with a trailing slash) of the deployment labelled `label`. */
  origin(label: string): string;
  /** The label named by a request's Host header, or undefined when the host is not an app's. */
  labelOf(host: string | undefined): string | undefined;
  /** `url` as the API shows it: with a fresh access token when the project is private. */
  present(url: string, projectId: string, visibility: SchemaVisibility, now?: Date): string;
  /** A token for the project, valid until now + ACCESS_TOKEN_TTL_MS. */
  token(projectId: string, now?: Date): string;
  /** Whether `token` grants access to the project's app at `now`. */
  verify(token: string | undefined, projectId: string, now?: Date): boolean;
  /** Whether apps are served over https (cookies are then Secure). */
  readonly secure: boolean;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function createAppAccess(options: AppAccessOptions): AppAccess {
  const domain = options.appsDomain?.toLowerCase().replace(/\.$/, "");
  const sign = (projectId: string, expires: number) =>
    createHmac("sha256", options.secret).update(`app-access.${projectId}.${expires}`).digest("base64url");

  const access: AppAccess = {
    secure: domain !== undefined,
    origin: (label) => (domain ? `https://${label}.${domain}/` : `http://${label}.localhost:${options.appsPort()}/`),
    labelOf(host) {
      const name = host?.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
      const suffix = `.${domain ?? "localhost"}`;
      if (!name?.endsWith(suffix)) return undefined;
      const label = name.slice(0, -suffix.length);
      return LABEL.test(label) ? label : undefined;
    },
    token(projectId, now = new Date()) {
      const expires = Math.floor((now.getTime() + ACCESS_TOKEN_TTL_MS) / 1000);
      return `${expires}.${sign(projectId, expires)}`;
    },
    verify(token, projectId, now = new Date()) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
      if (!match) return false;
      const expires = Number(match[1]);
      if (expires * 1000 <= now.getTime()) return false;
      const expected = Buffer.from(sign(projectId, expires));
      const given = Buffer.from(match[2]!);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    present(url, projectId, visibility, now = new Date()) {
      if (visibility !== "private") return url;
      const signed = new URL(url);
      signed.searchParams.set(ACCESS_TOKEN_PARAM, access.token(projectId, now));
      return signed.toString();
    },
  };
  return access;
}
