// Requests to the apps listener as a browser would make them. Node's fetch does not resolve
// `*.localhost` to loopback (browsers do), so requests go to the listener's address with the app's
// own host in the Host header.
import { request } from "node:http";

export interface AppResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** GETs `url` (an app's address, as the API gives it) from the apps listener at `listenerUrl`. */
export function getApp(listenerUrl: string, url: string, headers: Record<string, string> = {}): Promise<AppResponse> {
  const target = new URL(url);
  return getAppPath(listenerUrl, target.host, target.pathname + target.search, headers);
}

/** GETs `path` exactly as written (no URL normalisation: `/.//x` stays `/.//x`) from the app at `host`. */
export function getAppPath(
  listenerUrl: string,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<AppResponse> {
  const listener = new URL(listenerUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: listener.hostname,
        port: listener.port,
        path,
        method: "GET",
        headers: { Host: host, Accept: "text/html,*/*", ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/**
 * Opens an app's url as a browser would: a private app's signed link answers 303 with a cookie,
 * which the browser sends on to the same address without the token.
 */
export async function openApp(listenerUrl: string, url: string): Promise<AppResponse & { cookie: string | undefined }> {
  const first = await getApp(listenerUrl, url);
  if (first.status !== 303) return { ...first, cookie: undefined };
  const cookie = String(first.headers["set-cookie"]).split(";")[0]!;
  const next = new URL(String(first.headers.location), url).toString();
  return { ...(await getApp(listenerUrl, next, { Cookie: cookie })), cookie };
}
