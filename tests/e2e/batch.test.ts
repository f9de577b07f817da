import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, startServer, useServer, ONE_WINDOW } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';

const site = useServer();

const batch = (body: unknown, base = '') =>
  get(site.url, `${base}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('POST /api/batch', () => {
  test('each item equals the standalone GET, in request order, run in-process', async () => {
    const { find, posts } = await corpus('content');
    const stale = find('stale');
    const paths = [
      '/api/posts?lang=fr&per_page=3',
      `/api/posts/${posts[0]!.slug}`,
      `/api/posts/${stale.slug}?lang=${stale.lang}`,
      `/api/posts/${stale.slug}?lang=${stale.lang}&fallback=en`,
      '/api/search?q=web&lang=en',
      '/api/categories?lang=de',
      '/api/posts?lang=xx',
      '/api/nothing-here',
      '/api/languages',
      '/api/site?lang=ja',
    ];
    const res = await batch({ requests: paths.map((path) => ({ path })) });
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('x-ratelimit-limit'));
    assert.deepEqual(res.json.results.map((r: { path: string }) => r.path), paths, 'request order');
    for (const [i, path] of paths.entries()) {
      const alone = await get(site.url, path);
      const item = res.json.results[i];
      assert.equal(item.status, alone.status, path);
      assert.deepEqual(item.body, alone.json, path);
    }
    assert.equal(res.json.results[2].status, 404, 'stale translation is unavailable');
    assert.equal(res.json.results[6].status, 400);
    assert.equal(res.json.results[7].status, 404);
  });

  test('per-item 400 and 405', async () => {
    const res = await batch({
      requests: [
        { path: '/status' },
        { path: '/api/batch' },
        { path: '/api/stream/search?q=web' },
        { path: '/api/../status' },
        { path: '/api/posts', method: 'POST' },
        { path: '/api/posts', method: 'get' },
        { path: 'api/posts' },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.results.map((r: { status: number }) => r.status), [400, 400, 400, 400, 405, 200, 400]);
    for (const r of res.json.results) if (r.status !== 200) assert.equal(typeof r.body.error, 'string');
  });

  test('whole-batch 400s: not JSON, not an object, no array, empty, over 20, an item without a string path', async () => {
    const bad: unknown[] = ['{nope', '[]', { requests: {} }, { requests: [] }, { requests: Array.from({ length: 21 }, () => ({ path: '/api/site' })) }, { requests: [{ path: 3 }] }, { requests: ['/api/site'] }, {}];
    for (const body of bad) {
      const res = await batch(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 40));
      assert.equal(typeof res.json.error, 'string');
    }
    const twenty = await batch({ requests: Array.from({ length: 20 }, () => ({ path: '/api/site' })) });
    assert.equal(twenty.status, 200);
    assert.equal(twenty.json.results.length, 20);
  });

  test('unknown fields are ignored, in the body and its items, as the OpenAPI schema says', async () => {
    const r = await batch({ requests: [{ path: '/api/site', foo: 1 }], extra: true });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.results[0].body, (await get(site.url, '/api/site')).json);
    const { BatchRequest } = (await get(site.url, '/openapi.json')).json.components.schemas;
    assert.notEqual(BatchRequest.additionalProperties, false);
    assert.notEqual(BatchRequest.properties.requests.items.additionalProperties, false);
  });

  test('GET /api/batch is 405 with Allow', async () => {
    const res = await get(site.url, '/api/batch');
    assert.equal(res.status, 405);
    assert.match(res.headers.get('allow') ?? '', /POST/);
    assert.equal(typeof res.json.error, 'string');
  });

  test('inside the sandbox, items resolve in the sandbox', async () => {
    const { posts } = await corpus('sandbox');
    const res = await batch({ requests: [{ path: '/api/posts' }, { path: `/api/posts/${posts[0]!.slug}` }] }, '/sandbox');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.results[0].body, (await get(site.url, '/sandbox/api/posts')).json);
    assert.equal(res.json.results[1].status, 200);
    assert.equal(res.json.results[1].body.data.slug, posts[0]!.slug);
  });
});

describe('batch and the rate limit', () => {
  test('every sub-request counts; items past the limit are 429', async () => {
    const limited = await startServer({ RATE_LIMIT: '8', ...ONE_WINDOW });
    try {
      const post = (n: number) =>
        get(limited.url, '/api/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: Array.from({ length: n }, () => ({ path: '/api/site' })) }) });
      const first = await post(3);
      assert.equal(first.headers.get('x-ratelimit-remaining'), '4', 'the batch (1) and its 3 items');
      const second = await post(5);
      assert.equal(second.status, 200);
      assert.deepEqual(second.json.results.map((r: { status: number }) => r.status), [200, 200, 200, 429, 429]);
      assert.equal(second.headers.get('x-ratelimit-remaining'), '0');
      const third = await post(1);
      assert.equal(third.status, 429);
      assert.ok(third.headers.get('retry-after'));
    } finally {
      await limited.stop();
    }
  });
});
