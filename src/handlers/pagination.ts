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

/**
 * One page of a list, as the contract answers it: reads `limit` and `cursor`, lets `read` fetch the
 * page from there, and signs the next position. `list` names the list (with its parent, e.g.
 * `runs:prj_…`); `filters` are the query's, bound into the cursor so that it cannot be replayed
 * against other ones.
 */
export async function listed<T>(
  context: Context,
  list: string,
  query: ListQuery | undefined,
  filters: Record<string, unknown>,
  read: (request: PageRequest) => Promise<Page<T>>,
): Promise<{ status: 200; body: { data: T[]; next_cursor: string | null } }> {
  const bound = listBound({ list, ...context.partition, filters });
  let after: PageRequest["after"];
  if (query?.cursor) {
    const decoded = context.cursors.decode(query.cursor, bound);
    if (!decoded.ok) throw new HttpError(400, "invalid_request", decoded.message, "cursor");
    after = decoded.position;
  }
  const page = await read({ limit: query?.limit ?? DEFAULT_PAGE_SIZE, after });
  return {
    status: 200,
    body: { data: page.items, next_cursor: page.next ? context.cursors.encode(page.next, bound) : null },
  };
}
