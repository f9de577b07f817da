import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer, ONE_WINDOW } from '../helpers/server.ts';
import { call, openStream, type Answer } from '../helpers/connection.ts';

/**
 * One `npm run serve` with two worker threads behaves as one process: the rate limit is exact
 * across them, a legacy MCP session is reached from either, streams are signed with one key, and
 * /status counts every worker's streams. Each request here opens its own connection, so the
 * kernel spreads them over the workers.
 */
let server: RunningServer;




before(async () => {
  // TRUST_PROXY lets each probe below be its own client, so the limit is counted per key.
  server = await startServer({ WORKERS: '2', RATE_LIMIT: '5', ...ONE_WINDOW, TRUST_PROXY: '1', EVENT_SIGNING_SECRET: '' });
});
after(() => server?.stop());

describe('two workers behave as one process', () => {
  test('both workers answer', async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 30 && seen.size < 2; i++) {
      const r = await call(server.url, '/status', { headers: { 'x-forwarded-for': `10.0.0.${i}` } });
      const body = JSON.parse(r.body) as { workers: number; worker: number };
      assert.equal(body.workers, 2);
      seen.add(body.worker);
    }
    assert.deepEqual([...seen].sort(), [1, 2]);
    assert.match(server.output(), /2 workers/);
  });

  test('RATE_LIMIT=5 across workers: the sixth request is 429, and the remaining counts agree', async () => {
    const client = { 'x-forwarded-for': '192.0.2.77' };
    const answers: Answer[] = [];
    for (let i = 0; i < 8; i++) answers.push(await call(server.url, i % 2 ? '/api/posts' : '/api/posts?lang=fr', { headers: client }));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200, 429, 429, 429]);
    assert.deepEqual(answers.slice(0, 5).map((a) => a.headers['x-ratelimit-remaining']), ['4', '3', '2', '1', '0']);
    assert.ok(Number(answers[5]!.headers['retry-after']) >= 1);
    // Concurrently too: of 12 at once from a new client, exactly 5 pass.
    const burst = await Promise.all(Array.from({ length: 12 }, () => call(server.url, '/api/languages', { headers: { 'x-forwarded-for': '192.0.2.78' } })));
    assert.equal(burst.filter((a) => a.status === 200).length, 5);
    assert.deepEqual(burst.filter((a) => a.status === 200).map((a) => a.headers['x-ratelimit-remaining']).sort(), ['0', '1', '2', '3', '4']);
  });

  test('a legacy MCP session opened on one worker gets the answers to messages POSTed to either', async () => {
    const stream = openStream(server.url, '/mcp/sse');
    await stream.until(() => stream.events.some((e) => e.event === 'endpoint'));
    const endpoint = stream.events.find((e) => e.event === 'endpoint')!.data;
    const post = (i: number, body: unknown) =>
      call(server.url, endpoint, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` }, body: JSON.stringify(body) });
    const init = await post(0, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(init.status, 202);
    // Ten messages on ten connections: the kernel sends some to the worker without the stream.
    for (let i = 1; i <= 10; i++) assert.equal((await post(i, { jsonrpc: '2.0', id: i, method: 'tools/list' })).status, 202, `message ${i}`);
    await stream.until(() => stream.events.filter((e) => e.event === 'message').length >= 11);
    const ids = stream.events.filter((e) => e.event === 'message').map((e) => (JSON.parse(e.data) as { id: number }).id);
    assert.deepEqual(ids.sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const active = await call(server.url, '/status', { headers: { 'x-forwarded-for': '198.51.100.99' } });
    assert.ok((JSON.parse(active.body) as { active_streams: number }).active_streams >= 1);
    stream.close();
    const gone = await call(server.url, `${endpoint.split('?')[0]}?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.100' }, body: '{}' });
    assert.equal(gone.status, 404, 'a session no worker holds');
  });

  test('every worker signs with the one key (made at start when EVENT_SIGNING_SECRET is unset)', async () => {
    const signatures = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const r = await call(server.url, '/api/stream/search?q=web&per_page=1', { headers: { accept: 'text/event-stream', 'x-forwarded-for': `203.0.113.${i}` } });
      const result = r.body.split('\n\n').find((block) => block.includes('event: result'))!;
      signatures.add(JSON.parse(result.split('\n').find((l) => l.startsWith('data: '))!.slice(6)).signature as string);
    }
    assert.equal(signatures.size, 1, 'the same event has the same signature on every worker');
  });

  test('open streams are counted across workers', async () => {
    const streams = [openStream(server.url, '/mcp/sse'), openStream(server.url, '/mcp/sse'), openStream(server.url, '/mcp/sse'), openStream(server.url, '/mcp/sse')];
    await Promise.all(streams.map((s) => s.until(() => s.events.length > 0)));
    // Streams of the tests before may still be closing: wait until only these four are open.
    const count = async (i: number) => (JSON.parse((await call(server.url, '/status', { headers: { 'x-forwarded-for': `192.0.2.${100 + i}` } })).body) as { active_streams: number }).active_streams;
    for (let i = 0; i < 40 && (await count(i)) !== 4; i++) await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 6; i++) {
      const status = JSON.parse((await call(server.url, '/status', { headers: { 'x-forwarded-for': `192.0.2.${100 + i}` } })).body) as { active_streams: number };
      assert.equal(status.active_streams, 4, 'every worker reports all four');
    }
    for (const s of streams) s.close();
  });
});
