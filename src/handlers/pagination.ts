// Lists, the same way everywhere: `limit` and `cursor` in, `{data, next_cursor}` out. Cursors are
// bound to the list, its filters and the caller's partition, so one from another list is refused.
import type { Page, PageRequest } from "../domain/partition.ts";
import { listBound } from "../http/cursor.ts";
import { HttpError } from "../http/errors.ts";
import type { Context } from "../http/request-context.ts";

export const DEFAULT_PAGE_SIZE = 20;

export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/** Reads `limit` and `cursor`; `list` names the list (with its parent, e.g. `runs:prj_…`). */
export function paged<T>(context: Context, list: string, query: ListQuery | undefined, filters: Record<string, unknown> = {}) {
  const bound = listBound({ list, ...context.partition, filters });
  let after: PageRequest["after"];
  if (query?.cursor) {
    const decoded = context.cursors.decode(query.cursor, bound);
    if (!decoded.ok) throw new HttpError(400, "invalid_request", decoded.message, "cursor");
    after = decoded.position;
  }
  const request: PageRequest = { limit: query?.limit ?? DEFAULT_PAGE_SIZE, after };
  return {
    request,
    /** The page as the contract answers it. */
    body(page: Page<T>): { data: T[]; next_cursor: string | null } {
      return { data: page.items, next_cursor: page.next ? context.cursors.encode(page.next, bound) : null };
    },
  };
}
