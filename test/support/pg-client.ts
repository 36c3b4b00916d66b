// One PostgreSQL connection for the length of some work, for test setup that runs outside the
// server's pool (creating and dropping databases).
import pg from "pg";

/** Connects to `url`, does `work` with the connection, and closes it whatever happens. */
export async function withPgClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
