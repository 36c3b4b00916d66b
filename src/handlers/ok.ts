// Most reads and updates answer 200 with what the domain returned, and nothing else.

/** A 200 answer with `body`, once it resolves. */
export async function ok<T>(body: Promise<T>): Promise<{ status: 200; body: T }> {
  return { status: 200, body: await body };
}
