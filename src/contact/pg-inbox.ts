import pg from 'pg';
import { sqlInbox, type Inbox } from './inbox.ts';
import { StoreUnavailable } from './store-unavailable.ts';

/**
 * The inbox on PostgreSQL (DATABASE_URL), shared by every process and machine: one table per
 * content root, created on first start. `?` parameters become `$1...`.
 */
export function pgInbox(url: string, table: string): Inbox {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
  // An idle connection that breaks is replaced; it must not take the process down.
  pool.on('error', () => undefined);
  // A database that is away is the service's "unavailable" (503, retry), not an internal error.
  const query = async (sql: string, params?: unknown[]) => {
    try {
      return await pool.query(sql, params);
    } catch (e) {
      throw new StoreUnavailable(`the inbox database: ${(e as Error).message}`);
    }
  };
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return sqlInbox(
    {
      dialect: 'postgres',
      // Two processes starting together would race on CREATE TABLE IF NOT EXISTS (PostgreSQL can
      // refuse the second): the schema is made under a transaction-scoped advisory lock.
      exec: async (sql) => {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (e) {
          throw new StoreUnavailable(`the inbox database: ${(e as Error).message}`);
        }
        try {
          await client.query('BEGIN');
          await client.query('SELECT pg_advisory_xact_lock(7370511)');
          await client.query(sql);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new StoreUnavailable(`the inbox database: ${(e as Error).message}`);
        } finally {
          client.release();
        }
      },
      all: async (sql, params) => (await query(numbered(sql), params)).rows as Record<string, string | number | null>[],
      run: async (sql, params) => void (await query(numbered(sql), params)),
      close: () => pool.end(),
    },
    table,
  );
}
