import { QuotaError, RetryableError, type Provider, type SegmentContext } from './provider.ts';
import type { Pace, Rate } from './pace.ts';

export interface RetryPolicy {
  attempts: number;
  /** The first wait when the provider names none; doubled each time, with up to as much again of jitter. */
  baseMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** Told of each wait, for the command's progress line: before a request (its pace) or before trying again. */
  onWait?: (ms: number, reason: string, kind: 'pace' | 'retry') => void;
  /** The provider's rate: each request waits until it fits in the rolling minute. */
  pace?: Pace;
  now?: () => number;
  /**
   * The run's retry budget, shared by every request of the run: the time failed requests took and
   * the waits before trying again are taken from it; when it is spent the run stops (a QuotaError).
   */
  budget?: { leftMs: number };
  /** A Retry-After longer than this is not waited for: the run stops, keeping what it did. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 500 };

/**
 * One batch to a provider, tried again on what may pass (429, 5xx, a lost connection): after the
 * provider's Retry-After when it gave one, else an exponential backoff with jitter. A quota error
 * is thrown at once: the run stops and keeps what it has.
 */
export async function sendWithRetry(provider: Provider, segments: readonly string[], lang: string, policy: RetryPolicy = DEFAULT_RETRY, note?: string, context?: readonly (SegmentContext | undefined)[]): Promise<string[]> {
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = policy.now ?? Date.now;
  const chars = segments.reduce((n, s) => n + s.length, 0);
  for (let attempt = 1; ; attempt++) {
    if (policy.pace) {
      const paced = policy.pace.delay(chars, now());
      if (paced > 0) {
        policy.onWait?.(paced, `keeping to ${describeRate(policy.pace.rate)}`, 'pace');
        await sleep(paced);
      }
      policy.pace.record(chars, now(), paced);
    }
    const started = now();
    try {
      return await provider.translate(segments, lang, note, context?.some((c) => c !== undefined) ? context : undefined);
    } catch (e) {
      if (e instanceof QuotaError || !(e instanceof RetryableError) || attempt >= policy.attempts) throw e;
      if (e.retryAfterMs !== undefined && policy.maxRetryAfterMs !== undefined && e.retryAfterMs > policy.maxRetryAfterMs) {
        throw new QuotaError(`${e.message}; it asks to wait ${Math.round(e.retryAfterMs / 1000)} s, over the ${Math.round(policy.maxRetryAfterMs / 1000)} s a run waits (run.max_retry_after_seconds)`);
      }
      const backoff = policy.baseMs * 2 ** (attempt - 1);
      const wait = e.retryAfterMs ?? backoff + Math.random() * backoff;
      if (policy.budget) {
        policy.budget.leftMs -= now() - started + wait;
        if (policy.budget.leftMs < 0) throw new QuotaError(`${e.message}; the run's retry budget is spent (run.retry_budget_seconds: failed requests and waits)`);
      }
      policy.onWait?.(wait, e.message, 'retry');
      await sleep(wait);
    }
  }
}

const describeRate = (rate: Rate) =>
  [rate.requestsPerMinute !== undefined && `${rate.requestsPerMinute} requests`, rate.charactersPerMinute !== undefined && `${rate.charactersPerMinute} characters`].filter(Boolean).join(' and ') + ' a minute';
