import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DISCONNECT_UNSEEN, get, TARGET, useServer } from '../helpers/server.ts';
import { readEvents } from '../helpers/sse.ts';
import { verifyPayload } from '../../functions/signing.ts';
import { SANDBOX_SIGNING_KEY } from '../../src/artefact/roots.ts';
import { RETRY_MS } from '../../src/core/limits.ts';
import { EventSource } from 'eventsource';

const SECRET = 'test-secret-ü-密';
const site = useServer({ EVENT_SIGNING_SECRET: SECRET });

/** Verifies a signature as a client would: parse, drop `signature`, re-serialise, HMAC, compare. */
async function verified(data: string, secret: string) {
  const payload = JSON.parse(data);
  assert.match(payload.signature, /^sha256=[0-9a-f]{64}$/);
  assert.ok(await verifyPayload(payload, secret), `signature of ${data.slice(0, 80)}`);
  assert.equal(Object.keys(payload).at(-1), 'signature', 'signature is the last key');
  return payload;
}

async function stream(path: string, init: RequestInit = {}) {
  const res = await fetch(site.url + path, init);
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  return readEvents(res);
}

describe('search streams', () => {
  for (const [label, path, init] of [
    ['/api/stream/search', '/api/stream/search?q=the&per_page=5&page=2', {}],
    ['/api/search with Accept: text/event-stream', '/api/search?q=the&per_page=5&page=2', { headers: { accept: 'text/event-stream' } }],
  ] as [string, string, RequestInit][]) {
    test(`${label}: status, one result per post with rank, done; ids unique; every event signed`, async () => {
      const events = await stream(path, init);
      const rest = await get(site.url, '/api/search?q=the&per_page=5&page=2');
      assert.deepEqual(events.map((e) => e.event), ['status', ...rest.json.data.map(() => 'result'), 'done']);
      assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'unique ids');
      assert.ok(events.every((e) => e.id));
      const payloads = [];
      for (const e of events) payloads.push(await verified(e.data, SECRET));
      const results = payloads.slice(1, -1);
      assert.deepEqual(results.map((r) => r.slug), rest.json.data.map((d: { slug: string }) => d.slug), 'same page as REST');
      assert.deepEqual(results.map((r) => r.rank), results.map((_, i) => 6 + i), '1-based ranks continue across pages');
      for (const r of results) {
        const { signature: _s, rank: _r, ...summary } = r;
        assert.deepEqual(summary, rest.json.data[r.rank - 6], 'result is the summary at top level');
      }
      const done = payloads.at(-1);
      assert.equal(done.total, rest.json.total);
      assert.equal(done.returned, results.length);
      assert.equal(typeof done.took_ms, 'number');
    });
  }

  test('a stream in another language, and no matches', async () => {
    const zh = await stream('/api/stream/search?q=%E7%BD%91%E7%BB%9C&lang=zh');
    assert.ok(zh.filter((e) => e.event === 'result').length >= 1);
    const none = await stream('/api/stream/search?q=zzqqxxnothing');
    assert.deepEqual(none.map((e) => e.event), ['status', 'done']);
    assert.equal(JSON.parse(none[1]!.data).total, 0);
  });

  test('bad input is a 400 JSON error before any stream starts', async () => {
    for (const path of ['/api/stream/search', '/api/stream/search?q=%20', '/api/stream/search?q=x&lang=xx']) {
      const r = await get(site.url, path, { headers: { accept: 'text/event-stream' } });
      assert.equal(r.status, 400, path);
      assert.equal(typeof r.json.error, 'string');
    }
  });

  test('the sandbox signs with its published key', async () => {
    const events = await stream('/sandbox/api/stream/search?q=sandbox');
    for (const e of events) await verified(e.data, SANDBOX_SIGNING_KEY);
    assert.equal(await verifyPayload(JSON.parse(events[0]!.data), SECRET), false, 'not with the site secret');
  });

  test('clients that disconnect free the server', { skip: TARGET === 'cloudflare' && DISCONNECT_UNSEEN }, async () => {
    const controllers = Array.from({ length: 20 }, () => new AbortController());
    await Promise.all(
      controllers.map(async (c) => {
        const res = await fetch(`${site.url}/api/stream/search?q=the&per_page=100`, { signal: c.signal });
        const reader = res.body!.getReader();
        await reader.read();
        c.abort();
      }),
    );
    let active = -1;
    for (let i = 0; i < 50 && active !== 0; i++) {
      active = (await get(site.url, '/status')).json.active_streams;
      if (active !== 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(active, 0);
    assert.equal((await get(site.url, '/api/search?q=tide')).status, 200);
  });
});

describe('/ask', () => {
  const ask = (body: unknown) => get(site.url, '/ask', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  test('answers questions in several languages from the indexes', async () => {
    const cases: [string, string, string][] = [
      ['What does the tide teach about energy?', 'en', 'tidal-energy'],
      ['¿Qué es la marea?', 'es', 'tidal-energy'],
      ['Pourquoi le pain prend-il du temps ?', 'fr', 'bread-and-time'],
      ['Wie funktioniert Sauerteig?', 'de', 'bread-and-time'],
      ['アーカイブの問題とは何ですか', 'ja', 'the-archive-problem'],
      ['ما هو الويب البطيء؟', 'ar', 'the-slow-web'],
      ['Что такое внимание?', 'ru', 'notes-on-attention'],
    ];
    for (const [query, lang, slug] of cases) {
      const r = await ask({ query });
      assert.equal(r.status, 200, query);
      assert.equal(r.json.status, 'success');
      assert.equal(r.json.query, query);
      assert.equal(r.json.language, lang, `language of ${query}`);
      assert.equal(typeof r.json.site, 'string');
      const first = r.json.response[0];
      assert.ok(first, `an answer for ${query}`);
      assert.ok(r.json.response.some((i: { url: string }) => i.url.endsWith(`/${slug}`)), `${slug} answers ${query}`);
      for (const item of r.json.response) for (const k of ['url', 'name', 'description', 'date']) assert.equal(typeof item[k], 'string', k);
    }
  });

  test('name is the title, description the summary; no match is success with []', async () => {
    const r = await ask({ query: 'tide' });
    const post = (await get(site.url, '/api/posts/tidal-energy')).json.data;
    assert.deepEqual(r.json.response[0], { url: post.url, name: post.title, description: post.summary, date: post.date });
    const none = await ask({ query: 'zzqqxxnothing' });
    assert.equal(none.status, 200);
    assert.deepEqual(none.json.response, []);
  });

  test('NLWeb nested form, GET form, site forms', async () => {
    const flat = await ask({ query: 'sourdough' });
    const nested = await ask({ query: { text: 'sourdough', site: 'The Long Field' }, prefer: { streaming: false } });
    assert.deepEqual(nested.json.response, flat.json.response);
    const viaGet = await get(site.url, '/ask?query=sourdough');
    assert.deepEqual(viaGet.json.response, flat.json.response);
    for (const s of ['The Long Field', 'http://localhost:4321', 'localhost:4321', 'http://localhost:4321/']) {
      const r = await ask({ query: 'sourdough', site: s });
      assert.equal(r.status, 200, s);
      assert.equal(r.json.site, 'localhost:4321');
    }
  });

  test('400 with {status: "error", error} for bad requests', async () => {
    for (const body of [{}, { query: '' }, { query: '   ' }, { query: 42 }, { query: 'x', site: 'example.com' }, { query: 'x', streaming: 'yes' }, [], 'just text', { query: 'x'.repeat(300) }]) {
      const r = await ask(body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 40));
      assert.equal(r.json.status, 'error');
      assert.equal(typeof r.json.error, 'string');
    }
    const malformed = await get(site.url, '/ask', { method: 'POST', body: '{"query":', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
    assert.equal((await get(site.url, '/ask')).status, 400);
  });

  test('streaming: signed start, one result per answer item, complete', async () => {
    const plain = await ask({ query: 'the' });
    for (const body of [{ query: 'the', streaming: true }, { query: { text: 'the' }, prefer: { streaming: true } }]) {
      const res = await fetch(`${site.url}/ask`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
      const events = await readEvents(res);
      assert.deepEqual(events.map((e) => e.event), ['start', ...plain.json.response.map(() => 'result'), 'complete']);
      assert.equal(new Set(events.map((e) => e.id)).size, events.length);
      const payloads = [];
      for (const e of events) payloads.push(await verified(e.data, SECRET));
      assert.deepEqual(payloads.slice(1, -1).map(({ signature: _, ...item }) => item), plain.json.response);
      assert.equal(payloads.at(-1).total, plain.json.response.length);
    }
  });

  test('the sandbox answers for the sandbox', async () => {
    const r = await get(site.url, '/sandbox/ask?query=media');
    assert.equal(r.status, 200);
    assert.ok(r.json.response.every((i: { url: string }) => i.url.includes('/sandbox/')));
  });
});

describe('streams end cleanly for a browser EventSource', () => {
  /**
   * An EventSource as a browser keeps it: never closed by the page. Before `retry:` and the 204 it
   * reconnected every 3 s and ran the search again; now its reconnect carries the last event's id,
   * gets 204, and the source closes after one search.
   */
  async function browse(path: string, last: string) {
    const source = new EventSource(site.url + path);
    const seen: string[] = [];
    for (const name of ['status', 'start', 'result', 'done', 'complete']) source.addEventListener(name, () => seen.push(name));
    const ended = new Promise<void>((resolve) => source.addEventListener('error', () => source.readyState === EventSource.CLOSED && resolve()));
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), RETRY_MS + 4_000).unref());
    const outcome = await Promise.race([ended, timeout]);
    source.close();
    assert.notEqual(outcome, 'timeout', 'the source closed after the reconnect got 204');
    assert.equal(seen.filter((e) => e === seen[0]).length, 1, `one search: ${seen.join(' ')}`);
    assert.equal(seen.at(-1), last);
  }

  test('/api/stream/search: one search per stream', { timeout: 20_000 }, () => browse('/api/stream/search?q=the', 'done'));
  test('/ask streaming: one answer per stream', { timeout: 20_000 }, () => browse('/ask?query=tide&streaming=true', 'complete'));

  test('Last-Event-ID resumes after the events already sent', async () => {
    const all = await stream('/api/stream/search?q=the&per_page=3');
    const resumed = await stream('/api/stream/search?q=the&per_page=3', { headers: { 'last-event-id': all[1]!.id! } });
    assert.deepEqual(resumed.map((e) => e.id), all.slice(2).map((e) => e.id));
    assert.deepEqual(resumed.map((e) => e.event), all.slice(2).map((e) => e.event));
    assert.deepEqual(resumed.slice(0, -1).map((e) => e.data), all.slice(2, -1).map((e) => e.data), 'the results not yet sent');
    const finished = await fetch(`${site.url}/api/stream/search?q=the&per_page=3`, { headers: { 'last-event-id': all.at(-1)!.id! } });
    assert.equal(finished.status, 204);
  });
});
