import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleEdge, rateLimitDeclaration } from '../../src/pipeline/targets/netlify.ts';
import { redisBinary, startRedis } from '../helpers/redis.ts';
import { startUpstash } from '../helpers/upstash-server.ts';

// The edge function Netlify runs on the API's paths when the site has an Upstash Redis: bundled as the
// build bundles it, run against Upstash's REST protocol over a real Redis.
const binary = redisBinary();
const skip = binary ? false : 'redis-server (or valkey-server) is not installed: apt-get install -y redis-server';
const TOKEN = 'test-upstash-token';
const LIMITS = { limits: { rateLimit: 3, rateWindowSeconds: 86_400, bodyLimit: 1_000_000 } };
type Edge = (request: Request, context: { ip: string; next(): Promise<Response> }) => Promise<Response>;

describe('Netlify rate-limit edge function on Upstash', { skip }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let upstash: Awaited<ReturnType<typeof startUpstash>>;
  let dir: string;
  let edge: Edge;
  const logged: string[] = [];
  const errors = console.error;
  const json = async () => Response.json({ posts: [] }, { headers: { 'content-type': 'application/json; charset=utf-8' } });
  const call = (ip: string, next = json) => edge(new Request('https://site.example/api/posts'), { ip, next });

  before(async () => {
    redis = await startRedis(binary!);
    upstash = await startUpstash(redis.url, TOKEN);
    dir = await mkdtemp(join(tmpdir(), 'folio-edge-'));
    const env: Record<string, string> = { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: TOKEN };
    const declared = rateLimitDeclaration(LIMITS, env)!;
    await bundleEdge('rate-limit', dir, declared.config, declared.define);
    (globalThis as { Netlify?: unknown }).Netlify = { env: { get: (name: string) => env[name] } };
    console.error = (m: string) => void logged.push(m);
    edge = ((await import(pathToFileURL(join(dir, 'edge-functions', 'rate-limit.js')).href)) as { default: Edge }).default;
  });
  after(async () => {
    console.error = errors;
    await upstash?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the build declares it on the API paths only with the store and a limit, the build limits written in', async () => {
    assert.equal(rateLimitDeclaration(LIMITS, {}), undefined, 'no store: no edge function');
    assert.equal(rateLimitDeclaration({ limits: { ...LIMITS.limits, rateLimit: 0 } }, { UPSTASH_REDIS_REST_URL: upstash.url }), undefined, 'no limit: no edge function');
    const source = await readFile(join(dir, 'edge-functions', 'rate-limit.js'), 'utf8');
    assert.match(source, /export const config = \{"path":\["\/api","\/api\/\*","\/mcp","\/mcp\/\*","\/sandbox\/api","\/sandbox\/api\/\*","\/sandbox\/mcp","\/sandbox\/mcp\/\*"\]\};\n$/);
    assert.match(source, /\{ rateLimit: 3, rateWindowSeconds: 86400, bodyLimit: 1e6 \}/, 'the limits are written in');
  });

  test('counts each client exactly in its window, with the app headers on JSON, and answers the 429 as the app does', async () => {
    const window = Math.floor(Date.now() / 86_400_000);
    const reset = String(Math.ceil(((window + 1) * 86_400_000) / 1000));
    for (const remaining of ['2', '1', '0']) {
      const r = await call('203.0.113.7');
      assert.equal(r.status, 200);
      assert.deepEqual([r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining'), r.headers.get('x-ratelimit-reset')], ['3', remaining, reset]);
      assert.deepEqual(await r.json(), { posts: [] });
    }
    const refused = await call('203.0.113.7', () => assert.fail('a refused request must not reach the CDN or the function'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
    assert.match(((await refused.json()) as { error: string }).error, /Rate limit of 3 requests/);
    // Another client has its own count; the key ends with its window.
    assert.equal((await call('198.51.100.4')).headers.get('x-ratelimit-remaining'), '2');
    const keys = await upstash.redis.keys('folio:rate:*');
    assert.equal(keys.length, 2);
    const ttl = await upstash.redis.pttl(keys[0]!);
    assert.ok(ttl > 0 && ttl <= 86_400_000, `the key expires with its window (pttl ${ttl})`);
  });

  test('a page or an image is counted but carries no rate headers', async () => {
    const page = await call('192.0.2.50', async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-ratelimit-limit'), null);
    assert.equal(await page.text(), '<!doctype html>');
    assert.equal((await call('192.0.2.50')).headers.get('x-ratelimit-remaining'), '1');
  });

  test('a store that is away lets reads through uncounted, with one clear log line', async () => {
    await redis.down();
    try {
      const r = await call('192.0.2.99');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-ratelimit-limit'), null);
      assert.ok(logged.some((m) => /rate limit store unreachable/.test(m)), logged.join('\n'));
    } finally {
      await redis.up();
    }
  });
});
