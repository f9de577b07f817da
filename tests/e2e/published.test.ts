import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { DIST } from '../../src/artefact/roots.ts';
import { fileAt } from '../../src/artefact/client-files.ts';
import { liveManifest, publishedRequests } from '../helpers/manifest.ts';
import { useServer } from '../helpers/server.ts';
import { raw } from '../helpers/raw-request.ts';

// The same build served twice: normally (published answers first) and with every function path
// answered by code (FAST_PATH=0, no answer cache), the runtime answer the files must equal.
const served = useServer();
const computed = useServer({ FAST_PATH: '0', ANSWER_CACHE_MB: '0', RATE_LIMIT: '0' });
const IDENTITY = { 'accept-encoding': 'identity' };

describe('the static artefact', () => {
  test('every published file equals the runtime answer for its request: bytes, type, ETag and caching', async () => {
    const manifest = await liveManifest();
    const requests = publishedRequests(manifest);
    assert.ok(requests.length > 500, `${requests.length} published requests`);
    const kinds = new Set<string>();
    for (const r of requests) {
      // Those print the server's limits: checked below, against a server with other limits.
      if (manifest.configDependent.includes(r.target)) continue;
      const file = await readFile(fileAt(DIST, manifest, r.file));
      const res = await fetch(computed.url + r.target, { headers: { ...IDENTITY, ...(r.accept ? { accept: r.accept } : {}) }, redirect: 'manual' });
      const body = new Uint8Array(await res.arrayBuffer());
      const what = `${r.target}${r.accept ? ` (${r.accept})` : ''} = ${r.file.file}`;
      assert.equal(res.status, 200, what);
      assert.ok(Buffer.from(body).equals(file), `bytes of ${what}`);
      assert.equal(res.headers.get('content-type'), r.file.type, what);
      assert.equal(res.headers.get('etag'), r.file.etag, what);
      assert.equal(res.headers.get('cache-control'), r.file.cacheControl, what);
      assert.equal(r.file.length, file.byteLength, what);
      kinds.add(r.file.type.split(';')[0]!);
      // The precompressed variants a static host (or nginx's *_static) serves decode to the same bytes.
      if (r.file.br !== undefined) {
        const br = await readFile(fileAt(DIST, manifest, r.file, '.br'));
        assert.equal(br.byteLength, r.file.br, what);
        assert.ok(brotliDecompressSync(br).equals(file), `br of ${what}`);
      }
      // No gzip copy is stored (a third of the files): the server makes it for a client that takes gzip
      // and not br, the bytes a stored copy had (level 6), with their length, on GET and HEAD alike.
      assert.equal(r.file.gzip, undefined, `no gzip copy of ${what}`);
      if (r.file.br !== undefined) {
        const asked = { 'accept-encoding': 'gzip', ...(r.accept ? { accept: r.accept } : {}) };
        const [gz, head] = await Promise.all([raw(computed.url, r.target, { headers: asked }), raw(computed.url, r.target, { method: 'HEAD', headers: asked })]);
        const coded = gz.bytes;
        const stored = gzipSync(file, { level: 6 });
        const worth = stored.byteLength < file.byteLength * 0.9;
        assert.equal(gz.headers.get('content-encoding'), worth ? 'gzip' : null, what);
        assert.ok(coded.equals(worth ? stored : file), `gzip of ${what}`);
        assert.equal(gz.headers.get('content-length'), String(coded.byteLength), what);
        assert.equal(gz.headers.get('etag'), worth ? `${r.file.etag.slice(0, -1)}-gz"` : r.file.etag, what);
        assert.equal(head.headers.get('content-length'), gz.headers.get('content-length'), `HEAD of ${what}`);
        assert.equal(head.headers.get('etag'), gz.headers.get('etag'), `HEAD of ${what}`);
      }
    }
    for (const t of ['application/json', 'text/html', 'text/markdown', 'text/plain', 'application/rss+xml', 'image/jpeg']) assert.ok(kinds.has(t), `published ${t}`);
  });

  test('every read-API answer of the default per_page is published: languages, pages, fallback, taxonomies, discovery', async () => {
    const manifest = await liveManifest();
    const answers = (path: string) => Object.keys(manifest.paths[path]?.answers ?? {});
    for (const base of ['', '/sandbox']) {
      const list = answers(`${base}/api/posts`);
      for (const q of ['', 'lang=fr', 'lang=ja&fallback=en', 'fallback=en']) assert.ok(list.includes(q), `${base}/api/posts?${q}`);
      assert.deepEqual(answers(`${base}/mcp/v1/posts`), list, 'the legacy alias has the same pages');
      for (const path of ['/api/languages', '/api/site', '/api/categories', '/api/tags', '/api/products/the-value-layer', '/openapi.json', '/llms.txt', '/fr/llms.txt', '/llms-full.txt', '/agents.md', '/auth.md', '/mcp/docs', '/mcp/server-card', '/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/api-catalog', '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/agent-skills/index.json', '/feed.xml', '/sitemap.xml']) {
        assert.ok(manifest.paths[`${base}${path}`], `${base}${path} is published`);
      }
      assert.equal(answers(`${base}/api/site`).length, 14, 'site in every language');
    }
    // Page 2 of every list that has one, in every language.
    const posts = (await (await fetch(`${served.url}/api/posts?per_page=100`)).json()) as { data: { slug: string }[] };
    assert.ok(posts.data.length > 10);
    assert.ok(answers('/api/posts').includes('page=2'));
    for (const { slug } of posts.data) {
      const detail = answers(`/api/posts/${slug}`);
      assert.ok(detail.includes(''), slug);
      // Every language has an answer with fallback=en; without it, exactly the available ones.
      assert.equal(detail.filter((q) => q.endsWith('fallback=en')).length, 14, `${slug} with fallback in 14 languages`);
      const single = (await (await fetch(`${computed.url}/api/posts/${slug}`)).json()) as { data: { translations_available: string[] } };
      assert.equal(detail.filter((q) => !q.includes('fallback')).length, new Set(['en', ...single.data.translations_available]).size, slug);
    }
  });

  test('a guide that prints the limits is served from the file only by a server with the build\'s limits', async () => {
    const manifest = await liveManifest();
    assert.deepEqual(manifest.configDependent, ['/agents.md', '/sandbox/agents.md']);
    const file = await readFile(fileAt(DIST, manifest, manifest.files.find((f) => f.file === '/agents.md')!), 'utf8');
    assert.equal(await (await fetch(`${served.url}/agents.md`, { headers: IDENTITY })).text(), file);
    const other = await (await fetch(`${computed.url}/agents.md`, { headers: IDENTITY })).text();
    assert.notEqual(other, file, 'RATE_LIMIT=0 is not what the build printed');
  });

  test('a static host gets its configuration: headers on every path, /en redirects, the not-found page', async () => {
    const headers = await readFile(join(DIST.client, '_headers'), 'utf8');
    assert.match(headers, /^\/\*\n  access-control-allow-origin: \*\n/);
    assert.match(headers, /access-control-expose-headers: X-RateLimit-Limit/);
    assert.match(headers, /\/_astro\/\*\n  cache-control: public, max-age=31536000, immutable/);
    const redirects = (await readFile(join(DIST.client, '_redirects'), 'utf8')).split('\n');
    assert.ok(redirects.includes('/en/* /:splat 301') && redirects.includes('/sandbox/en/* /sandbox/:splat 301'));
    const notFound = await readFile(join(DIST.client, '404.html'), 'utf8');
    assert.match(notFound, /data-page="not-found"/);
    assert.equal(notFound, await (await fetch(`${served.url}/no-such-page`, { headers: IDENTITY })).text(), 'the page the server answers');
    for (const path of ['/_headers', '/_redirects', '/404.html']) assert.equal((await fetch(served.url + path)).status, 404, `${path} is configuration, not content`);
  });

  test('a static host finds each answer at its documented file', async () => {
    const manifest = await liveManifest();
    const file = (path: string, query = '') => {
      const a = manifest.paths[path]!.answers[query]!;
      return manifest.files[typeof a === 'number' ? a : a.json!]!.file;
    };
    assert.equal(file('/api/posts'), '/api/posts/index.json');
    assert.equal(file('/api/posts', 'lang=fr&fallback=en'), '/api/posts/_query/lang=fr&fallback=en.json');
    assert.equal(file('/api/posts/the-slow-web', 'lang=es'), '/api/posts/the-slow-web/_query/lang=es.json');
    assert.equal(file('/openapi.json'), '/openapi.json');
    assert.equal(file('/mcp/docs'), '/mcp/docs/index.md');
    assert.equal(file('/fr/llms.txt'), '/fr/llms.txt');
  });
});

describe('the fast path', () => {
  const detail = '/api/posts/the-slow-web';

  test('equivalent queries get the published answer: case, order, defaults and unknown parameters', async () => {
    const want = await (await fetch(`${served.url}/api/posts?lang=fr&fallback=en`, { headers: IDENTITY })).text();
    for (const q of ['fallback=en&lang=fr', 'lang=FR&fallback=en&page=1', 'lang=fr&fallback=en&per_page=10&utm_source=x']) {
      const r = await fetch(`${served.url}/api/posts?${q}`, { headers: IDENTITY });
      assert.equal(r.status, 200, q);
      assert.equal(await r.text(), want, q);
    }
    for (const q of ['page=01', 'per_page=1e1', 'lang=xx', 'fallback=fr']) assert.equal((await fetch(`${served.url}/api/posts?${q}`)).status, 400, q);
    const other = await fetch(`${served.url}/api/posts?per_page=3`);
    assert.equal(((await other.json()) as { data: unknown[] }).data.length, 3, 'a non-default per_page is computed');
  });

  test('304 on a matching If-None-Match, with the validators and policies kept', async () => {
    const first = await fetch(served.url + detail, { headers: IDENTITY });
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[\w-]{27}"$/);
    const again = await fetch(served.url + detail, { headers: { ...IDENTITY, 'if-none-match': `"other", ${etag}` } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(again.headers.get('access-control-allow-origin'), '*');
    assert.ok(again.headers.get('x-ratelimit-limit'));
    assert.equal(await again.text(), '');
    const weak = await fetch(served.url + detail, { headers: { ...IDENTITY, 'if-none-match': `W/${etag}` } });
    assert.equal(weak.status, 304, 'weak comparison');
    assert.equal((await fetch(served.url + detail, { headers: { ...IDENTITY, 'if-none-match': '"nope"' } })).status, 200);
  });

  test('HEAD has the GET headers and no body', async () => {
    const get = await fetch(served.url + detail, { headers: IDENTITY });
    const head = await fetch(served.url + detail, { method: 'HEAD', headers: IDENTITY });
    assert.equal(head.status, 200);
    for (const h of ['content-type', 'content-length', 'etag', 'cache-control', 'vary']) assert.equal(head.headers.get(h), get.headers.get(h), h);
    assert.equal(await head.text(), '');
  });

  test('brotli and gzip made at build time, chosen by Accept-Encoding, each with its own ETag; Vary names it', async () => {
    const plain = await fetch(served.url + detail, { headers: IDENTITY });
    const text = await plain.text();
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(plain.headers.get('vary'), 'Accept-Encoding');
    for (const [accept, coding] of [['br', 'br'], ['gzip, deflate', 'gzip'], ['gzip;q=1, br;q=0.5', 'gzip'], ['br;q=0, gzip;q=0', null], ['*', 'br']] as const) {
      const r = await fetch(served.url + detail, { headers: { 'accept-encoding': accept } });
      assert.equal(r.headers.get('content-encoding'), coding, accept);
      assert.equal(await r.text(), text, `${accept} decodes to the same bytes`);
      if (coding) assert.equal(r.headers.get('etag'), `${plain.headers.get('etag')!.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`);
      if (coding) assert.ok(Number(r.headers.get('content-length')) < text.length / 2, 'smaller');
    }
    const small = await fetch(`${served.url}/.well-known/api-catalog`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(small.headers.get('content-encoding'), null, 'under 1 KiB goes as it is');
    assert.ok(small.headers.get('link'), 'the published Link header');
  });

  test('a function answer is compressed the same way', async () => {
    const r = await fetch(`${served.url}/api/posts?per_page=30`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(r.headers.get('content-encoding'), 'gzip');
    assert.match(r.headers.get('vary')!, /Accept-Encoding/);
    const plain = await fetch(`${served.url}/api/posts?per_page=30`, { headers: IDENTITY });
    assert.equal(await r.text(), await plain.text());
    assert.equal(r.headers.get('etag'), `${plain.headers.get('etag')!.slice(0, -1)}-gz"`);
  });

  test('byte ranges for media: 206, suffix ranges, 416, If-Range', async () => {
    const url = `${served.url}/sandbox/media/media-sample/tide.mp4`;
    const whole = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const part = await fetch(url, { headers: { range: 'bytes=10-99' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 10-99/${whole.length}`);
    assert.equal(part.headers.get('accept-ranges'), 'bytes');
    assert.deepEqual(new Uint8Array(await part.arrayBuffer()), whole.subarray(10, 100));
    const tail = await fetch(url, { headers: { range: 'bytes=-16' } });
    assert.equal(tail.status, 206);
    assert.deepEqual(new Uint8Array(await tail.arrayBuffer()), whole.subarray(whole.length - 16));
    const open = await fetch(url, { headers: { range: `bytes=${whole.length - 5}-` } });
    assert.equal(Number(open.headers.get('content-length')), 5);
    const beyond = await fetch(url, { headers: { range: `bytes=${whole.length}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${whole.length}`);
    assert.match(beyond.headers.get('content-type') ?? '', /^application\/json/, 'a 416 is JSON like every 4xx');
    assert.match(((await beyond.json()) as { error: string }).error, /Range not satisfiable/);
    const changed = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"old"' } });
    assert.equal(changed.status, 200, 'If-Range that does not match gets the whole file');
    assert.equal((await changed.arrayBuffer()).byteLength, whole.length);
  });

  test('post URLs negotiate among the published page, JSON and Markdown', async () => {
    const page = await fetch(`${served.url}/es/the-slow-web`, { headers: IDENTITY });
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.equal(page.headers.get('vary'), 'Accept, Accept-Encoding');
    const json = await fetch(`${served.url}/es/the-slow-web`, { headers: { ...IDENTITY, accept: 'application/json' } });
    assert.equal(await json.text(), await (await fetch(`${served.url}/api/posts/the-slow-web?lang=es`, { headers: IDENTITY })).text());
    assert.ok(json.headers.get('x-ratelimit-remaining'), 'JSON carries the rate-limit headers');
    assert.equal(page.headers.get('x-ratelimit-remaining'), null, 'HTML does not');
    const md = await fetch(`${served.url}/es/the-slow-web`, { headers: { ...IDENTITY, accept: 'text/markdown' } });
    assert.equal(await md.text(), await (await fetch(`${served.url}/es/the-slow-web.md`, { headers: IDENTITY })).text());
    assert.notEqual(page.headers.get('etag'), json.headers.get('etag'));
  });

  test('an unknown page path gets its language\'s published not-found page, 404 and never 304', async () => {
    const manifest = await liveManifest();
    for (const [path, prefix, lang] of [['/nope', '', 'en'], ['/fr/nope/deeper', '/fr', 'fr'], ['/sandbox/ja/x', '/sandbox/ja', 'ja'], ['/_not-found', '', 'en']] as const) {
      const r = await fetch(served.url + path, { headers: IDENTITY });
      assert.equal(r.status, 404, path);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      const body = await r.text();
      assert.match(body, new RegExp(`<html lang="${lang}"`), path);
      assert.equal(body, await readFile(fileAt(DIST, manifest, manifest.files[manifest.notFound[prefix]!]!), 'utf8'), path);
      const again = await fetch(served.url + path, { headers: { ...IDENTITY, 'if-none-match': r.headers.get('etag') ?? '*' } });
      assert.equal(again.status, 404, 'a missing page is never "not modified"');
    }
  });

  test('only published answers are served: no variants, internals, server code or manifest by their file names', async () => {
    for (const path of ['/api/posts/index.json.br', '/api/posts/_query/lang=fr.json', '/feed.xml.gz', '/manifest.json', '/bundle/main/catalog.json', '/builds', '/current/manifest.json', '/the-slow-web.html', '/the-slow-web.html.br', '/fr/_not-found.html']) {
      const r = await fetch(served.url + path);
      assert.equal(r.status, 404, path);
    }
  });
});
