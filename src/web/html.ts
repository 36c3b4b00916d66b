// Moved to src/html/template.ts (issue #23: web/ became pages/ and html/). Kept only for
// src/agents/builtin-edit.ts, which another change moves; delete this file once it imports
// ../html/template.ts.
export { escapeHtml, html, Html, raw } from "../html/template.ts";
