// The document every server-rendered page shares (the console's, the authorization endpoint's, the
// refusals'): language, viewport, the one stylesheet (and, where the page has behaviour, the one
// script), a skip link, a masthead and the page's one <h1>. The console and OAuth pages differ only
// in what they put in the masthead and the main area.
import { assetUrl } from "./assets.ts";
import { html, type Html } from "../html/template.ts";

export interface DocumentParts {
  /** The <title>, before ` · Project Builder…`. */
  readonly title: string;
  /** What follows the title: which part of the service this is. */
  readonly site: string;
  readonly heading: string;
  /** The masthead's row: the brand and whatever stands beside it. */
  readonly masthead: Html;
  /** Below the masthead's row, inside the header (the console's workspace nav). */
  readonly nav?: Html;
  readonly body: Html;
  /** A class for <main> besides `wrap`. */
  readonly mainClass?: string;
  /** Whether to load the pages' script (copy buttons); pages without behaviour leave it out. */
  readonly script?: boolean;
}

export function pageDocument(parts: DocumentParts): Html {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title} · ${parts.site}</title>
<link rel="stylesheet" href="${assetUrl("console.css")}">
${parts.script ? html`<script src="${assetUrl("console.js")}" defer></script>\n` : ""}</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="masthead">
<div class="wrap masthead-row">
${parts.masthead}
</div>
${parts.nav ?? ""}
</header>
<main id="main" class="wrap${parts.mainClass ? ` ${parts.mainClass}` : ""}" tabindex="-1">
<h1>${parts.heading}</h1>
${parts.body}
</main>
</body>
</html>`;
}
