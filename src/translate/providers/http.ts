import { RetryableError, SetupError } from '../provider.ts';

/**
 * JSON over HTTP for the providers without a client library here (LibreTranslate, Google's REST
 * API): what the server answered, or a RetryableError when it could not be reached (refused,
 * reset, timed out), which is worth trying again like a 5xx.
 */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The parsed body, or undefined when it was not JSON (a proxy's HTML error page). */
  data: unknown;
}

/** The default per-request timeout (`run.request_timeout_seconds` in translation.yaml): a hung connection is retried. */
export const REQUEST_TIMEOUT_MS = 60_000;

export async function requestJson(who: string, url: string, init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<JsonAnswer> {
  const timeoutMs = init.timeoutMs ?? REQUEST_TIMEOUT_MS;
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') throw new RetryableError(`${who}: no answer from ${url} within ${timeoutMs / 1000} s`);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new RetryableError(`${who}: ${url} could not be reached (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  return { status: response.status, headers: response.headers, data };
}

/** An endpoint from the environment as a base URL without its trailing slash, or a SetupError naming the variable. */
export function baseUrl(variable: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url.href.replace(/\/+$/, '');
  } catch {
    throw new SetupError(`${variable} must be an http(s) URL (got "${value}")`);
  }
}
