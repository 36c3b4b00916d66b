// Moved to src/html/tags.ts (issue #23: web/ became pages/ and html/). Kept only for
// src/agents/builtin-edit.ts, which another change moves; delete this file once it imports
// ../html/tags.ts.
export { forEachTag, hasId, type Attribute, type Tag } from "../html/tags.ts";
