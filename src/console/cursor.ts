// The console's "next page" links, made by the API's cursor codec (src/http/cursor.ts): opaque,
// signed with the cursor secret (CURSOR_SECRET; never the CSRF secret: one secret, one purpose), and
// bound to their list — the workspace, which list, its environment and filters — so a link of one
// list is refused by every other (400), as the API refuses another list's cursor.
import { CursorError, listBound, type CursorCodec, type CursorPosition } from "../http/cursor.ts";

/** What a console list's cursor is bound to. */
export interface ConsoleList {
  /** Which list: `audit`, `webhooks`, `deliveries:<endpoint id>`, `invoices`. */
  readonly name: string;
  readonly workspaceId: string;
  readonly environment?: string;
  readonly filters?: Readonly<Record<string, unknown>>;
}

/** What every refused page link shows (CursorError's own message speaks of the API's `cursor`). */
export const DAMAGED_LINK = "This page link is damaged or was changed. Go back to the first page and try again.";

function bound(list: ConsoleList): string {
  return listBound({
    list: `console:${list.name}`,
    workspaceId: list.workspaceId,
    environment: list.environment ?? "",
    filters: list.filters ?? {},
  });
}

/** The position an `after` query value names, checked; undefined for the first page. */
export function pageAfter(codec: CursorCodec, list: ConsoleList, value: string | null): CursorPosition | undefined {
  if (value === null || value === "") return undefined;
  const position = codec.decodeOrThrow(value, bound(list));
  const at = Date.parse(position.created_at);
  if (Number.isNaN(at)) throw new CursorError("malformed", DAMAGED_LINK);
  return { created_at: new Date(at).toISOString(), id: position.id };
}

export function pageToken(codec: CursorCodec, list: ConsoleList, next: CursorPosition): string {
  return codec.encode(next, bound(list));
}
