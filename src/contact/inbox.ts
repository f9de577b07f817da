import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Network } from '@x402/core/types';
import type { Address, Hex } from 'viem';
import type { ContactMessage } from './fields.ts';
import type { SignedPermit } from './payment.ts';
import type { SentAnswer } from './sent.ts';

export interface NewMessage {
  key: string;
  message: ContactMessage;
  digest: string;
  network: Network;
  asset: Address;
  payTo: Address;
  permit: SignedPermit;
}

export interface StoredMessage extends NewMessage {
  id: number;
  state: 'pending' | 'settled';
  permitTx?: Hex;
  transferTx?: Hex;
  answer?: SentAnswer;
  createdAt: string;
  settledAt?: string;
  delivery: { deliveredAt?: string; attempts: number; nextAttemptAt?: string; error?: string };
}

/**
 * The durable store of paid messages. A message is written (pending) with its payment key before
 * anything is sent to the chain, gets its transaction hashes before they are broadcast, and is
 * completed (settled, with the stored answer) after the transfer's receipt. Delivery to the owner
 * is an outbox over the same rows.
 */
export interface Inbox {
  find(key: string): Promise<StoredMessage | undefined>;
  /** Writes the message ahead of settlement; a key that is already there is left as it is. */
  reserve(entry: NewMessage): Promise<StoredMessage>;
  recordTransaction(key: string, step: 'permit' | 'transfer', hash: Hex): Promise<void>;
  complete(key: string, answer: SentAnswer, at: Date): Promise<void>;
  /** Forgets a pending message whose payment failed without charging anything. */
  discard(key: string): Promise<void>;
  list(): Promise<StoredMessage[]>;
  /** Pending messages whose transfer was sent (its hash recorded): paid, if the chain says so, but not completed. */
  unfinished(): Promise<StoredMessage[]>;
  /**
   * Claims settled messages not yet delivered whose next attempt is due, for `leaseMs`: no other
   * sender (process or machine on the same store) gets them until the lease ends, and a sender that
   * dies mid-way leaves them to be claimed again when it does.
   */
  claimForDelivery(now: Date, limit: number, leaseMs: number): Promise<StoredMessage[]>;
  markDelivered(id: number, at: Date): Promise<void>;
  markDeliveryFailed(id: number, error: string, nextAttemptAt: Date): Promise<void>;
  close(): Promise<void>;
}

/** The table, in SQLite's or PostgreSQL's words (they differ only in the id column). */
export const inboxSchema = (table: string, dialect: Dialect) => `
CREATE TABLE IF NOT EXISTS ${table} (
  id ${dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY'},
  payment_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL CHECK (state IN ('pending', 'settled')),
  sender TEXT NOT NULL,
  body TEXT NOT NULL,
  reply_to TEXT,
  callback TEXT,
  digest TEXT NOT NULL,
  network TEXT NOT NULL,
  asset TEXT NOT NULL,
  pay_to TEXT NOT NULL,
  payer TEXT NOT NULL,
  permit TEXT NOT NULL,
  permit_tx TEXT,
  transfer_tx TEXT,
  answer TEXT,
  created_at TEXT NOT NULL,
  settled_at TEXT,
  delivered_at TEXT,
  delivery_attempts INTEGER NOT NULL DEFAULT 0,
  next_delivery_at TEXT,
  delivery_error TEXT
);
CREATE INDEX IF NOT EXISTS ${table}_outbox ON ${table} (state, delivered_at, next_delivery_at);
`;

type Row = Record<string, string | number | null>;

const opt = <T>(v: string | number | null | undefined): T | undefined => (v === null || v === undefined ? undefined : (v as T));

function fromRow(r: Row): StoredMessage {
  return {
    id: r.id as number,
    key: r.payment_key as string,
    state: r.state as StoredMessage['state'],
    message: {
      sender: r.sender as string,
      body: r.body as string,
      ...(r.reply_to !== null && { reply_to: r.reply_to as string }),
      ...(r.callback !== null && { callback: r.callback as string }),
    },
    digest: r.digest as string,
    network: r.network as Network,
    asset: r.asset as Address,
    payTo: r.pay_to as Address,
    permit: JSON.parse(r.permit as string) as SignedPermit,
    permitTx: opt<Hex>(r.permit_tx),
    transferTx: opt<Hex>(r.transfer_tx),
    answer: r.answer === null ? undefined : (JSON.parse(r.answer as string) as SentAnswer),
    createdAt: r.created_at as string,
    settledAt: opt<string>(r.settled_at),
    delivery: {
      deliveredAt: opt<string>(r.delivered_at),
      attempts: r.delivery_attempts as number,
      nextAttemptAt: opt<string>(r.next_delivery_at),
      error: opt<string>(r.delivery_error),
    },
  };
}

type Dialect = 'sqlite' | 'postgres';

/** What the inbox needs of a database: statements with `?` parameters. */
export interface SqlDriver {
  dialect: Dialect;
  exec(sql: string): Promise<void>;
  all(sql: string, params: unknown[]): Promise<Row[]>;
  run(sql: string, params: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/** The inbox over any SQL database: the same statements for the embedded file and for PostgreSQL. */
export function sqlInbox(db: SqlDriver, table = 'messages', options: { readOnly?: boolean } = {}): Inbox {
  // Made before the first statement (PostgreSQL: on first start); a failure (the database away) is
  // tried again by the next statement rather than remembered.
  let ready: Promise<void> | undefined = options.readOnly ? Promise.resolve() : undefined;
  const prepared = () =>
    (ready ??= db.exec(inboxSchema(table, db.dialect)).catch((e: unknown) => {
      ready = undefined;
      throw e;
    }));
  const all = async (sql: string, params: unknown[]) => (await prepared(), db.all(sql, params));
  const run = async (sql: string, params: unknown[]) => (await prepared(), db.run(sql, params));
  const find = async (key: string) => (await all(`SELECT * FROM ${table} WHERE payment_key = ?`, [key])).map(fromRow)[0];
  return {
    find,
    async reserve(e) {
      const m = e.message;
      await run(
        `INSERT INTO ${table} (payment_key, state, sender, body, reply_to, callback, digest, network, asset, pay_to, payer, permit, created_at)
         VALUES (?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (payment_key) DO NOTHING`,
        [e.key, m.sender, m.body, m.reply_to ?? null, m.callback ?? null, e.digest, e.network, e.asset, e.payTo, e.permit.owner, JSON.stringify(e.permit), new Date().toISOString()],
      );
      return (await find(e.key))!;
    },
    async recordTransaction(key, step, hash) {
      await run(`UPDATE ${table} SET ${step === 'permit' ? 'permit_tx' : 'transfer_tx'} = ? WHERE payment_key = ?`, [hash, key]);
    },
    async complete(key, answer, at) {
      await run(`UPDATE ${table} SET state = 'settled', answer = ?, settled_at = ?, next_delivery_at = ? WHERE payment_key = ? AND state = 'pending'`, [
        JSON.stringify(answer),
        at.toISOString(),
        at.toISOString(),
        key,
      ]);
    },
    async discard(key) {
      await run(`DELETE FROM ${table} WHERE payment_key = ? AND state = 'pending'`, [key]);
    },
    async list() {
      return (await all(`SELECT * FROM ${table} ORDER BY id`, [])).map(fromRow);
    },
    async unfinished() {
      return (await all(`SELECT * FROM ${table} WHERE state = 'pending' AND transfer_tx IS NOT NULL ORDER BY id`, [])).map(fromRow);
    },
    async claimForDelivery(now, limit, leaseMs) {
      // The lease is the next attempt moved past it, in one statement. The outer condition is checked
      // again on a row another claimer just took (PostgreSQL), so two claimers never share a row.
      const due = `state = 'settled' AND delivered_at IS NULL AND next_delivery_at <= ?`;
      const rows = await all(`UPDATE ${table} SET next_delivery_at = ? WHERE id IN (SELECT id FROM ${table} WHERE ${due} ORDER BY id LIMIT ?) AND ${due} RETURNING *`, [
        new Date(now.getTime() + leaseMs).toISOString(),
        now.toISOString(),
        limit,
        now.toISOString(),
      ]);
      return rows.map(fromRow).sort((a, b) => a.id - b.id);
    },
    async markDelivered(id, at) {
      await run(`UPDATE ${table} SET delivered_at = ?, delivery_attempts = delivery_attempts + 1, delivery_error = NULL, next_delivery_at = NULL WHERE id = ?`, [at.toISOString(), id]);
    },
    async markDeliveryFailed(id, error, nextAttemptAt) {
      await run(`UPDATE ${table} SET delivery_attempts = delivery_attempts + 1, delivery_error = ?, next_delivery_at = ? WHERE id = ?`, [error, nextAttemptAt.toISOString(), id]);
    },
    close: () => db.close(),
  };
}

/**
 * WAL is kept in the file: the first process to open it switches it. Two processes opening a new
 * file at once (two servers on one inbox) can find it locked while the other switches, and SQLite
 * does not wait on that lock (busy_timeout does not apply): tried again for up to a second.
 */
function walMode(db: { exec(sql: string): void }): void {
  for (let attempt = 0; ; attempt++) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (e) {
      if (attempt >= 50 || (e as { errcode?: number }).errcode !== 5) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/** The embedded default: one SQLite file, fully synced on every commit. */
export function sqliteInbox(path: string, options: { readOnly?: boolean } = {}): Inbox {
  if (path !== ':memory:' && !options.readOnly) mkdirSync(dirname(path), { recursive: true });
  // Loaded on first use: node:sqlite warns that it is experimental, which a server without contact need not say.
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const db = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
  db.exec('PRAGMA busy_timeout = 5000');
  if (!options.readOnly) {
    walMode(db);
    db.exec('PRAGMA synchronous = FULL');
  }
  type Param = string | number | null;
  return sqlInbox(
    {
      dialect: 'sqlite',
      exec: async (sql) => db.exec(sql),
      all: async (sql, params) => db.prepare(sql).all(...(params as Param[])) as Row[],
      run: async (sql, params) => void db.prepare(sql).run(...(params as Param[])),
      close: async () => {
        if (db.isOpen) db.close();
      },
    },
    'messages',
    options,
  );
}
