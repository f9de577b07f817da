import { DurableObject } from 'cloudflare:workers';
import { windowDecision, type RateDecision } from '../../app/policies/rate-limit.ts';

/**
 * One client's fixed window on Cloudflare: a Durable Object per client key (one instance in the
 * world, so the count is exact across every isolate and location), kept in its SQLite storage so
 * it survives the object being evicted.
 */
export class RateLimits extends DurableObject {
  hit(cost: number, limit: number, windowSeconds: number): RateDecision {
    const windowMs = windowSeconds * 1000;
    const window = Math.floor(Date.now() / windowMs);
    const sql = this.ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY CHECK (id = 1), window INTEGER NOT NULL, count INTEGER NOT NULL)');
    const [row] = sql.exec('INSERT INTO hits (id, window, count) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET count = CASE WHEN window = excluded.window THEN count + excluded.count ELSE excluded.count END, window = excluded.window RETURNING count', window, cost).toArray();
    return windowDecision(Number(row!.count), window, limit, windowMs);
  }
}
