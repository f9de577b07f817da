import { sqlInbox, type Inbox } from '../../contact/inbox.ts';
import { StoreUnavailable } from '../../contact/store-unavailable.ts';

/** A D1 error is the store being unavailable (503, retry), as a database away is on Node. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw new StoreUnavailable(`the inbox database (D1): ${(e as Error).message}`);
  }
}

/** The paid-contact inbox on D1 (SQLite at Cloudflare): the same statements as the embedded file. */
export function d1Inbox(db: D1Database, table: string): Inbox {
  return sqlInbox(
    {
      dialect: 'sqlite',
      // One statement per prepare: the schema is split at its semicolons and run as one batch.
      exec: (sql) =>
        guarded(async () => {
          const statements = sql.split(';').map((s) => s.trim()).filter(Boolean);
          await db.batch(statements.map((s) => db.prepare(s)));
        }),
      all: (sql, params) => guarded(async () => (await db.prepare(sql).bind(...params).all<Record<string, string | number | null>>()).results),
      run: (sql, params) => guarded(async () => void (await db.prepare(sql).bind(...params).run())),
      close: async () => {},
    },
    table,
  );
}
