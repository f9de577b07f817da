// Issue 28 (3): a request the server refuses with its body unread (413 over the body limit, 405 on a
// published answer) gets its status on a connection a keep-alive client goes on using: Node's
// fetch (undici, a pooled connection per origin) saw ECONNRESET instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

const site = useServer({ RATE_LIMIT: '0' });

const OVER = new Uint8Array(256 * 1024).fill(0x61);
/** Past the bound the server drains (src/server/unread-body.ts): answered, then the connection closes. */
const HUGE = new Uint8Array(4 * 1024 * 1024).fill(0x61);

interface Case {
  method: string;
  path: string;
  body?: Uint8Array<ArrayBuffer> | string;
  status: number;
}

const CASES: Case[] = [
  { method: 'POST', path: '/ask', body: OVER, status: 413 },
  { method: 'GET', path: '/api/posts', status: 200 },
  { method: 'POST', path: '/mcp', body: OVER, status: 413 },
  { method: 'PUT', path: '/api/posts/the-slow-web', body: '{"title":"x"}', status: 405 },
  { method: 'GET', path: '/api/posts', status: 200 },
];

/** Requests one after another, as a client's code sends them: the pool reuses its connections. */
async function lane(cases: Case[], failures: string[]): Promise<void> {
  for (const c of cases) {
    try {
      const res = await fetch(site.url + c.path, { method: c.method, headers: c.body ? { 'content-type': 'application/json' } : {}, body: c.body });
      await res.arrayBuffer();
      if (res.status !== c.status) failures.push(`${c.method} ${c.path}: ${res.status}, expected ${c.status}`);
    } catch (e) {
      const cause = (e as Error & { cause?: { code?: string; message?: string } }).cause;
      failures.push(`${c.method} ${c.path}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    }
  }
}

const LANES = 4;
const ROUNDS = 10;

test('refused requests with bodies, interleaved with reads on pooled connections: every status, no reset', async () => {
  const failures: string[] = [];
  const cases = Array.from({ length: ROUNDS }, () => CASES).flat();
  await Promise.all(Array.from({ length: LANES }, () => lane(cases, failures)));
  assert.deepEqual(failures, [], `${failures.length} of ${LANES * cases.length} failed`);
});

test('a refused body past the drained bound: its status, then a clean close, not a reset', async () => {
  const failures: string[] = [];
  const cases = Array.from({ length: ROUNDS }, (_, i): Case[] => [{ method: 'POST', path: i % 2 ? '/mcp' : '/ask', body: HUGE, status: 413 }, CASES[1]!]).flat();
  await Promise.all(Array.from({ length: LANES }, () => lane(cases, failures)));
  assert.deepEqual(failures, [], `${failures.length} of ${LANES * cases.length} failed`);
});
