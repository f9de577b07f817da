import { DurableObject } from 'cloudflare:workers';
import { windowDecision, type RateDecision } from '../../app/policies/rate-limit.ts';

/**
 * One client's fixed window on Cloudflare: a Durable Object per client key (one instance in the
 * world, so the count is exact across every isolate and location), kept in its SQLite storage so
 * it survives the object being evicted. An alarm at the window's end deletes the row, so a client
 * that stops coming leaves nothing stored (memory and storage grow with live clients only).
 */
export class RateLimits extends DurableObject {
  hit(cost: number, limit: number, windowSeconds: number): RateDecision {
    const windowMs = windowSeconds * 1000;
    const window = Math.floor(Date.now() / windowMs);
    const sql = this.ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS hits (id INTEGER PRIMARY KEY CHECK (id = 1), window INTEGER NOT NULL, count INTEGER NOT NULL)');
    const [row] = sql.exec('INSERT INTO hits (id, window, count) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET count = CASE WHEN window = excluded.window THEN count + excluded.count ELSE excluded.count END, window = excluded.window RETURNING count', window, cost).toArray();
    const count = Number(row!.count);
    // The first request of a window moves the alarm to its end (setAlarm replaces the last one).
    if (count === cost) void this.ctx.storage.setAlarm((window + 1) * windowMs);
    return windowDecision(count, window, limit, windowMs);
  }

  /** The window ended with no request of the next one (that would have moved the alarm). */
  alarm(): void {
    this.ctx.storage.sql.exec('DELETE FROM hits');
  }
}
