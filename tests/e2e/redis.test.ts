import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer, ONE_WINDOW } from '../helpers/server.ts';
import { call, openStream, type Answer } from '../helpers/connection.ts';
import { redisBinary, startRedis } from '../helpers/redis.ts';
import { verifyPayload } from '../../functions/signing.ts';
import { STREAM_SHARE_TTL_MS } from '../../src/state/redis-streams.ts';

/**
 * Two server processes on two ports sharing a real Redis (REDIS_URL) behave as one for rate
 * limits, legacy MCP sessions, signatures and the stream count; the store going away leaves
 * published reads served and says 503 where it is needed.
 */
const binary = redisBinary();
const SECRET = 'shared-across-processes';
let redis: Awaited<ReturnType<typeof startRedis>>;
let a: RunningServer;
let b: RunningServer;



describe('two processes on one Redis', { skip: binary ? false : 'redis-server (or valkey-server) is not installed: apt-get install -y redis-server' }, () => {
  before(async () => {
    redis = await startRedis(binary!);
    const env = { REDIS_URL: redis.url, EVENT_SIGNING_SECRET: SECRET, RATE_LIMIT: '5', ...ONE_WINDOW, TRUST_PROXY: '1' };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  test('RATE_LIMIT=5 across both: the sixth is 429 with Retry-After, and the remaining counts agree', async () => {
    const client = { 'x-forwarded-for': '192.0.2.1' };
    const answers: Answer[] = [];
    for (let i = 0; i < 7; i++) answers.push(await call(i % 2 ? b.url : a.url, '/api/posts', { headers: client }));
    assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200, 429, 429]);
    assert.deepEqual(answers.slice(0, 5).map((r) => r.headers['x-ratelimit-remaining']), ['4', '3', '2', '1', '0']);
    assert.ok(Number(answers[5]!.headers['retry-after']) >= 1);
    assert.equal(answers[0]!.headers['x-ratelimit-reset'], answers[4]!.headers['x-ratelimit-reset']);
    // At once too (the hits of one turn are sent as one increment): of 12 from a new client, exactly 5 pass.
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? b.url : a.url, '/api/languages', { headers: { 'x-forwarded-for': '192.0.2.9' } })));
    const passed = burst.filter((r) => r.status === 200);
    assert.equal(passed.length, 5);
    assert.deepEqual(passed.map((r) => r.headers['x-ratelimit-remaining']).sort(), ['0', '1', '2', '3', '4']);
  });

  test('a legacy MCP session opened on A receives the answer to a POST sent to B; /status on B counts A\'s stream', async () => {
    const stream = openStream(a.url, '/mcp/sse');
    await stream.until(() => stream.events.some((e) => e.event === 'endpoint'));
    const endpoint = stream.events.find((e) => e.event === 'endpoint')!.data;
    const sent = await call(b.url, endpoint, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.2' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) });
    assert.equal(sent.status, 202, sent.body);
    await stream.until(() => stream.events.some((e) => e.event === 'message' && (JSON.parse(e.data) as { id?: number }).id === 7));
    const status = JSON.parse((await call(b.url, '/status', { headers: { 'x-forwarded-for': '192.0.2.3' } })).body) as { active_streams: number };
    assert.ok(status.active_streams >= 1, 'B counts the stream A holds');
    stream.close();
    const unknown = await call(b.url, '/mcp/messages?sessionId=nobody', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.4' }, body: '{}' });
    assert.equal(unknown.status, 404);
  });

  test('stream events from A and B verify with the same key', async () => {
    for (const [i, base] of [a.url, b.url].entries()) {
      const r = await call(base, '/api/stream/search?q=web', { headers: { accept: 'text/event-stream', 'x-forwarded-for': `192.0.2.${10 + i}` } });
      const datas = r.body.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
      assert.ok(datas.length >= 2);
      for (const d of datas) assert.ok(await verifyPayload(d, SECRET), base);
    }
  });

  test('a second process without EVENT_SIGNING_SECRET serves everything but its streams (503), and says so once', async () => {
    const c = await startServer({ REDIS_URL: redis.url, EVENT_SIGNING_SECRET: '', RATE_LIMIT: '0' });
    try {
      assert.equal((await call(c.url, '/')).status, 200);
      assert.equal((await call(c.url, '/api/search?q=web')).status, 200);
      const stream = await call(c.url, '/api/stream/search?q=web', { headers: { accept: 'text/event-stream' } });
      assert.equal(stream.status, 503);
      assert.match((JSON.parse(stream.body) as { error: string }).error, /EVENT_SIGNING_SECRET/);
      assert.equal(c.output().match(/EVENT_SIGNING_SECRET is not set/g)?.length, 1);
    } finally {
      await c.stop();
    }
  });

  test('a process killed with open streams: the others stop counting them within the share TTL', async () => {
    // A client address per call: B's rate limit is 5.
    let asked = 0;
    const count = async () => (JSON.parse((await call(b.url, '/status', { headers: { 'x-forwarded-for': `203.0.113.${++asked}` } })).body) as { active_streams: number }).active_streams;
    const before = await count();
    const c = await startServer({ REDIS_URL: redis.url, EVENT_SIGNING_SECRET: SECRET, RATE_LIMIT: '0', TRUST_PROXY: '1' });
    const N = 20;
    // A client address each: the per-client session cap is not what is tested.
    const streams = Array.from({ length: N }, (_, i) => openStream(c.url, '/mcp/sse', { 'x-forwarded-for': `198.51.100.${i + 1}` }));
    await Promise.all(streams.map((s) => s.until(() => s.events.some((e) => e.event === 'endpoint'))));
    assert.equal(await count(), before + N, 'B counts the streams C holds');
    c.kill('SIGKILL');
    await c.exited;
    const killed = Date.now();
    let now = await count();
    while (now !== before && Date.now() - killed < STREAM_SHARE_TTL_MS + 2_000) {
      await new Promise((r) => setTimeout(r, 200));
      now = await count();
    }
    assert.equal(now, before, `C's streams still counted ${Date.now() - killed} ms after it died`);
    streams.forEach((s) => s.close());
  });

  test('the store away: published reads still served, sessions a clear 503, and counting again once it returns', async () => {
    await redis.down();
    const page = await call(a.url, '/api/posts/the-slow-web', { headers: { 'x-forwarded-for': '192.0.2.20' } });
    assert.equal(page.status, 200, 'published content is still served');
    assert.equal((await call(b.url, '/the-slow-web', { headers: { 'x-forwarded-for': '192.0.2.20' } })).status, 200);
    const message = await call(b.url, '/mcp/messages?sessionId=x', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.21' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    assert.equal(message.status, 503);
    assert.match(JSON.parse(message.body).error, /unavailable/);
    await redis.up();
    let counted = false;
    for (let i = 0; i < 50 && !counted; i++) {
      const r = await call(a.url, '/api/posts', { headers: { 'x-forwarded-for': `192.0.2.${30 + (i % 100)}` } });
      counted = r.headers['x-ratelimit-remaining'] !== undefined;
      if (!counted) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(counted, 'the rate limit counts again once Redis is back');
  });
});
