// A browser, as far as the server-rendered pages need one, for tests that drive them with fetch:
// a cookie jar, no automatic redirects, and the hidden fields of a page's forms.
/** A browser, as far as these pages need one: cookies, no automatic redirects. */
export class CookieBrowser {
  readonly cookies = new Map<string, string>();
  readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0)
      headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(path.startsWith("http") ? path : this.origin + path, {
      ...init,
      headers,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)];
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  post(
    path: string,
    fields: Record<string, string> | [string, string][],
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

function unescapeHtml(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[entity]!,
  );
}

/**
 * The hidden inputs of a form of the page: the post whose button sends `decision=<decision>`, the
 * GET form (`"get"`), or the first form.
 */
export function formFields(page: string, which?: string): [string, string][] {
  const forms = page.match(/<form[\s\S]*?<\/form>/g) ?? [];
  const form = forms.find((candidate) =>
    which === "get"
      ? candidate.includes('method="get"')
      : which
        ? candidate.includes(`name="decision" value="${which}"`)
        : true,
  );
  if (!form) throw new Error(`no form ${which ?? ""} in:\n${page}`);
  return [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)].map((match) => [
    match[1]!,
    unescapeHtml(match[2]!),
  ]);
}
