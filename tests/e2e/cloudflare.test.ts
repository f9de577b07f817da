import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { DIST, PUBLISH, ROOTS } from '../../src/artefact/roots.ts';
import type { Manifest } from '../../src/artefact/manifest.ts';
import { filesUnder } from '../../src/fs/files-under.ts';
import { liveManifest } from '../helpers/manifest.ts';
import { cloudflareOptions, WORKER_FIRST, writeCloudflare } from '../../src/pipeline/targets/cloudflare.ts';
import { isQueryAnswer } from '../../src/pipeline/targets/workers-layout.ts';
import { markedProcesses, MARK, markFor } from '../helpers/marked-processes.ts';
import { startServer, type RunningServer, ONE_WINDOW } from '../helpers/server.ts';

// The Workers project `npm run build -- --target cloudflare` writes (npm test builds it with
// FOLIO_WORKERS_NEGOTIATE=1, so that the e2e suites run on it negotiate pages as on Node), checked
// as files, then run on workerd by `npm run preview:cloudflare`; and the project by default (pages
// served by the assets without the worker), written here from the live build.
const OUT = join(PUBLISH.out, 'cloudflare');
const built = existsSync(join(OUT, 'wrangler.jsonc'));
const skip = built ? false : `${OUT} is absent: run \`FOLIO_WORKERS_NEGOTIATE=1 npm run build -- --target cloudflare\``;

async function config(dir = OUT) {
  const text = await readFile(join(dir, 'wrangler.jsonc'), 'utf8');
  return JSON.parse(text.replace(/^\/\/.*$/gm, '')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('the Cloudflare Workers project', { skip }, () => {
  test('wrangler.jsonc: the worker, nodejs_compat, assets behind the worker, the Durable Object and its migration', async () => {
    const c = await config();
    assert.match(c.main, /src\/hosts\/cloudflare\/worker\.ts$/);
    assert.ok(existsSync(join(OUT, c.main)), 'the worker entry resolves from the project');
    assert.deepEqual(c.compatibility_flags, ['nodejs_compat', 'enable_request_signal']);
    assert.match(c.compatibility_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(c.assets, { directory: 'assets', binding: 'ASSETS', run_worker_first: WORKER_FIRST, html_handling: 'auto-trailing-slash', not_found_handling: 'none' });
    // With negotiation, the worker runs first everywhere but on the files that are only ever static.
    assert.equal(c.assets.run_worker_first[0], '/*');
    for (const p of ['!/_astro/*', '!/media/*', '!/sandbox/media/*', '!/favicon.svg']) assert.ok(c.assets.run_worker_first.includes(p), p);
    assert.deepEqual(c.durable_objects.bindings, [
      { name: 'RATE_LIMITS', class_name: 'RateLimits' },
      { name: 'MCP_SESSIONS', class_name: 'McpSessions' },
      { name: 'LOCKS', class_name: 'Locks' },
    ]);
    assert.deepEqual(c.migrations, [{ tag: 'v1', new_sqlite_classes: ['RateLimits', 'McpSessions', 'Locks'] }]);
    assert.equal(c.d1_databases[0].binding, 'INBOX');
    const migration = await readFile(join(OUT, c.d1_databases[0].migrations_dir, '0001_inbox.sql'), 'utf8');
    for (const r of ROOTS) assert.match(migration, new RegExp(`CREATE TABLE IF NOT EXISTS folio_messages_${r.name} \\(`));
  });

  test('assets: each manifest file once under the name the worker\'s manifest gives it, no precompressed copies, no answers to queries', async () => {
    const manifest = await liveManifest();
    const assets = join(OUT, 'assets');
    const worker = await liveManifest(join(assets, '_folio'));
    // The stored manifest is joined back from its chunks, which number its files anew: files are matched by the answer they are.
    const answers = (m: Manifest, path: string) => Object.entries(m.paths[path]?.answers ?? {}).flatMap(([q, a]) => (typeof a === 'number' ? [[q, a] as const] : Object.entries(a).map(([o, i]) => [`${q}#${o}`, i!] as const)));
    for (const path of Object.keys(manifest.paths)) {
      const placedAt = new Map(answers(worker, path));
      for (const [key, i] of answers(manifest, path)) {
        const f = manifest.files[i]!;
        if (isQueryAnswer(f.file)) continue;
        const placed = worker.files[placedAt.get(key)!]!;
        assert.equal(placed.br ?? placed.gzip, undefined, `${f.file} has no coded variants`);
        assert.ok(existsSync(join(assets, placed.file)), `${f.file} at ${placed.file}`);
        assert.equal(placed.etag, f.etag);
      }
    }
    // Pages where the assets find them at their URL (a home with its slash), the other answers private.
    const at = (path: string, key = '') => worker.files[new Map(answers(worker, path)).get(key)!]!.file;
    assert.equal(at('/fr/'), '/fr/index.html');
    assert.equal(at('/the-slow-web', '#html'), '/the-slow-web.html');
    assert.equal(at('/api/posts'), '/_folio/site/api/posts/index.json');
    const names = filesUnder(assets);
    assert.deepEqual(names.filter((n) => /\.(br|gz)$/.test(n) || n.includes('/_query/')), []);
    assert.equal(names.length, manifest.files.filter((f) => !isQueryAnswer(f.file)).length + names.filter((n) => n.startsWith('/_folio/bundle/') || n.startsWith('/_folio/manifest')).length + 2, 'the files, the bundles, the manifest\'s root and chunks, _headers and _redirects');
    for (const r of ROOTS) {
      assert.ok(existsSync(join(assets, '_folio/bundle', r.name, 'catalog.json')), r.name);
      assert.ok(!existsSync(join(assets, '_folio/bundle', r.name, 'media')), `${r.name} media are not duplicated`);
    }
    for (const f of ['_headers', '_redirects']) assert.ok(existsSync(join(assets, f)), f);
  });

  test('a preview that does not start within its deadline is stopped with the wrangler and workerd it started', async () => {
    // Marked, to find every process it starts (tests/helpers/marked-processes.ts); wrangler alone takes
    // seconds to bundle the worker, so half a second is never enough.
    const id = `preview-${process.pid}-${Date.now()}`;
    const saved = process.env.FOLIO_TEST_START_TIMEOUT;
    process.env.FOLIO_TEST_START_TIMEOUT = '0.5';
    try {
      await assert.rejects(startServer({ [MARK]: markFor(process.env[MARK], id) }, 'cloudflare'), /server did not start within [\d.]+ s/);
    } finally {
      if (saved === undefined) delete process.env.FOLIO_TEST_START_TIMEOUT;
      else process.env.FOLIO_TEST_START_TIMEOUT = saved;
    }
    // Killed with SIGKILL as the preview exits: given a moment to be gone (never, without the stop).
    const killed = Date.now();
    while (markedProcesses(id).length && Date.now() - killed < 5_000) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(markedProcesses(id), []);
  });

  describe('on workerd', () => {
    let worker: RunningServer;
    before(async () => {
      worker = await startServer({ RATE_LIMIT: '0' }, 'cloudflare');
    });
    after(() => worker?.stop());

    test('an image, a stylesheet and an Astro asset are served by the assets without the worker, with the headers Node sends', async () => {
      const manifest = await liveManifest();
      const css = manifest.files.find((f) => f.file.startsWith('/_astro/') && f.file.endsWith('.css'))!.file;
      const variant = manifest.files.find((f) => f.file.startsWith('/media/_v/'))!.file;
      const paths = [css, '/media/tidal-energy/cover.jpg', variant, '/favicon.svg', '/sandbox/media/media-sample/tide.mp4'];
      const node = await startServer({ RATE_LIMIT: '0' }, 'node');
      try {
        for (const path of paths) {
          const [w, n] = await Promise.all([worker.url, node.url].map((base) => fetch(base + path, { headers: { 'accept-encoding': 'identity' } })));
          await Promise.all([w!.arrayBuffer(), n!.arrayBuffer()]);
          assert.equal(w!.status, 200, path);
          // CF-Cache-Status is set by Workers' asset serving alone (its default headers): the worker never ran.
          assert.ok(w!.headers.has('cf-cache-status'), `${path} is served by the assets`);
          for (const h of ['cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'referrer-policy']) assert.equal(w!.headers.get(h), n!.headers.get(h), `${path}: ${h}`);
          assert.equal(w!.headers.get('content-type')?.split(';')[0], n!.headers.get('content-type')?.split(';')[0], `${path}: content-type`);
          assert.ok(w!.headers.get('etag'), `${path} has an ETag`);
        }
      } finally {
        await node.stop();
      }
    });

    test('with FOLIO_WORKERS_NEGOTIATE=1 a page URL runs the worker and negotiates by Accept', async () => {
      const html = await fetch(`${worker.url}/the-slow-web`, { headers: { accept: 'text/html' } });
      const md = await fetch(`${worker.url}/the-slow-web`, { headers: { accept: 'text/markdown' } });
      const json = await fetch(`${worker.url}/the-slow-web`, { headers: { accept: 'application/json' } });
      assert.match(html.headers.get('content-type')!, /^text\/html/);
      assert.match(md.headers.get('content-type')!, /^text\/markdown/);
      assert.match(json.headers.get('content-type')!, /^application\/json/);
      assert.match(await md.text(), /^---\n[\s\S]*\n# The Slow Web\n/);
      assert.equal(await json.text(), await (await fetch(`${worker.url}/api/posts/the-slow-web`)).text(), 'the API envelope');
      await html.arrayBuffer();
      for (const r of [html, md, json]) {
        assert.equal(r.headers.get('cf-cache-status'), null, 'answered by the worker');
        assert.match(r.headers.get('vary')!, /Accept/);
      }
    });

    test('a HEAD the worker answers has the headers of its GET, coded for the client as GET is, as Node\'s HEAD has', async () => {
      // The app strips a HEAD's body before the worker codes an answer: without answering HEAD as GET
      // first, its ETag, Vary and Content-Length were the identity's where GET's are the coding's.
      const node = await startServer({ RATE_LIMIT: '0' }, 'node');
      try {
        for (const path of ['/the-slow-web', '/fr/the-archive-problem', '/api', '/api/posts?lang=fr', '/atom.xml', '/the-slow-web.md', '/search?q=tide', '/llms.txt']) {
          const ask = (base: string, method: string) => fetch(base + path, { method, headers: { 'accept-encoding': 'br' } });
          const [get, head, nodeHead] = [await ask(worker.url, 'GET'), await ask(worker.url, 'HEAD'), await ask(node.url, 'HEAD')];
          await get.arrayBuffer();
          assert.equal(head.status, 200, path);
          assert.equal((await head.arrayBuffer()).byteLength, 0, `${path}: no body`);
          assert.match(head.headers.get('etag')!, /-br"$/, `${path}: the coding's validator`);
          for (const h of ['etag', 'vary', 'content-encoding', 'content-type', 'cache-control']) assert.equal(head.headers.get(h), get.headers.get(h), `${path}: ${h} as GET's`);
          for (const h of ['etag', 'vary', 'content-encoding', 'content-type', 'cache-control']) assert.equal(head.headers.get(h), nodeHead.headers.get(h), `${path}: ${h} as Node's HEAD`);
          assert.ok(Number(head.headers.get('content-length')) > 0, `${path}: the coded length`);
        }
      } finally {
        await node.stop();
      }
    });

    test('the private build files are never served', async () => {
      for (const path of ['/_folio/manifest.json', '/_folio/bundle/main/catalog.json', '/_folio/bundle/sandbox/search/en.index.bin', '/_headers', '/api/posts/index.json.br']) {
        const res = await fetch(worker.url + path, { headers: { 'accept-encoding': 'identity' } });
        await res.arrayBuffer();
        assert.equal(res.status, 404, path);
      }
    });

    test('a published answer comes with its build-time bytes and validator, coded by the worker for its client as Node codes it', async () => {
      const manifest = await liveManifest();
      const file = manifest.files[manifest.paths['/api/posts']!.answers[''] as number]!;
      const published = await readFile(join(OUT, 'assets', '_folio/site', file.file));
      const plain = await fetch(`${worker.url}/api/posts`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(plain.headers.get('etag'), file.etag);
      assert.deepEqual(Buffer.from(await plain.arrayBuffer()), published);
      const res = await fetch(`${worker.url}/api/posts`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.headers.get('etag'), `${file.etag.slice(0, -1)}-br"`);
      assert.equal(res.headers.get('content-encoding'), 'br');
      assert.match(res.headers.get('vary')!, /Accept-Encoding/);
      // fetch decodes the brotli: the published bytes, coded once.
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), published);
      const again = await fetch(`${worker.url}/api/posts`, { headers: { 'accept-encoding': 'br', 'if-none-match': res.headers.get('etag')! } });
      assert.equal(again.status, 304, 'the coding\'s own validator');
    });

    test('the rate limit is one count per client in its Durable Object', async () => {
      const limited = await startServer({ RATE_LIMIT: '4', ...ONE_WINDOW }, 'cloudflare');
      try {
        const statuses: number[] = [];
        const remaining: (string | null)[] = [];
        for (let i = 0; i < 6; i++) {
          // Published and computed answers count against the same window.
          const res = await fetch(`${limited.url}${['/api/posts', '/api/posts?per_page=3', '/api/site'][i % 3]}`);
          await res.arrayBuffer();
          statuses.push(res.status);
          remaining.push(res.headers.get('x-ratelimit-remaining'));
        }
        assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
        assert.deepEqual(remaining, ['3', '2', '1', '0', '0', '0']);
      } finally {
        await limited.stop();
      }
    });
  });
});

/** A request's answer, its body read; whether the worker answered it (its invocation number, in the preview). */
async function view(base: string, path: string) {
  const res = await fetch(base + path, { headers: { 'accept-encoding': 'identity' }, redirect: 'manual' });
  return { res, body: Buffer.from(await res.arrayBuffer()), invocation: res.headers.get('x-folio-invocation') };
}

describe('the Workers project by default: a page view invokes nothing', { skip }, () => {
  let dir: string;
  let worker: RunningServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-cf-default-'));
    await writeCloudflare(DIST, ROOTS.map((r) => r.name), dir, { ...cloudflareOptions({}), negotiate: false });
    worker = await startServer({ RATE_LIMIT: '0', FOLIO_CLOUDFLARE_DIR: dir, FOLIO_PREVIEW_INVOCATIONS: '1' }, 'cloudflare');
  });
  after(async () => {
    await worker?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('wrangler.jsonc lists the computed paths only: no catch-all, no page', async () => {
    const first = (await config(dir)).assets.run_worker_first as string[];
    assert.ok(!first.includes('/*') && !first.some((p) => p.startsWith('!')), first.join(' '));
    for (const p of ['/_folio/*', '/api', '/search', '/fr/search', '/sandbox/search']) assert.ok(first.includes(p), p);
    for (const p of ['/', '/fr/', '/the-slow-web', '/page/2']) assert.ok(!first.includes(p), p);
    assert.ok(first.length <= 100, `${first.length} rules (Cloudflare takes 100)`);
  });

  test('homes, posts in two languages, a list, a term page, a stylesheet and an image come from the assets; the API from the worker', async () => {
    const manifest = await liveManifest();
    const css = manifest.files.find((f) => f.file.startsWith('/_astro/') && f.file.endsWith('.css'))!.file;
    const node = await startServer({ RATE_LIMIT: '0' }, 'node');
    try {
      // The worker numbers its invocations: the API before and after the page views are consecutive.
      const before = await view(worker.url, '/api/site');
      assert.equal(before.res.status, 200);
      assert.ok(before.invocation, 'the API runs the worker');
      for (const path of ['/', '/fr/', '/the-archive-problem', '/fr/the-archive-problem', '/page/2', '/category/science', css, '/media/tidal-energy/cover.jpg']) {
        const [w, n] = [await view(worker.url, path), await view(node.url, path)];
        assert.equal(w.res.status, 200, path);
        assert.equal(w.invocation, null, `${path} did not run the worker`);
        assert.ok(w.res.headers.has('cf-cache-status'), `${path} is served by the assets`);
        assert.deepEqual(w.body, n.body, `${path}: the bytes Node sends`);
        for (const h of ['content-type', 'cache-control', 'access-control-allow-origin', 'x-content-type-options', 'referrer-policy']) assert.equal(w.res.headers.get(h), n.res.headers.get(h), `${path}: ${h}`);
      }
      const after = await view(worker.url, '/api/site');
      assert.equal(Number(after.invocation), Number(before.invocation) + 1, 'no invocation between the two API reads');
    } finally {
      await node.stop();
    }
  });

  test('a HEAD of a page in any language, of the sandbox, or of a static file invokes nothing and has the GET\'s headers', async () => {
    const manifest = await liveManifest();
    const css = manifest.files.find((f) => f.file.startsWith('/_astro/') && f.file.endsWith('.css'))!.file;
    const before = await view(worker.url, '/api/site');
    assert.ok(before.invocation, 'the API runs the worker');
    const pages = ['/', '/fr/', '/fr/the-archive-problem', '/fr/category/science', '/fr/about', '/ja/', '/ja/notes-on-attention', '/zh/the-archive-problem', '/page/2', '/sandbox/', '/sandbox/fr/', '/sandbox/first-steps'];
    for (const path of [...pages, css, '/media/tidal-energy/cover.jpg']) {
      const get = await view(worker.url, path);
      const head = await fetch(worker.url + path, { method: 'HEAD', headers: { 'accept-encoding': 'identity' }, redirect: 'manual' });
      assert.equal(get.res.status, 200, path);
      assert.equal(head.status, 200, path);
      assert.equal((await head.arrayBuffer()).byteLength, 0, `${path}: no body`);
      assert.equal(head.headers.get('x-folio-invocation'), null, `${path}: a HEAD did not run the worker`);
      // The assets' _headers apply to HEAD as to GET (Content-Length aside: the assets send none on a HEAD).
      for (const h of ['content-type', 'cache-control', 'etag', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'referrer-policy', 'allow']) assert.equal(head.headers.get(h), get.res.headers.get(h), `${path}: ${h}`);
    }
    const after = await view(worker.url, '/api/site');
    assert.equal(Number(after.invocation), Number(before.invocation) + 1, 'no invocation between the two API reads');
  });

  test('what only the worker answers still reaches it: Markdown, feeds, a search, an unavailable translation, the private files', async () => {
    for (const [path, status] of [['/the-slow-web.md', 200], ['/atom.xml', 200], ['/search?q=tide', 200], ['/de/quiet-numbers', 404], ['/_folio/manifest.json', 404], ['/no-such-page', 404]] as const) {
      const w = await view(worker.url, path);
      assert.equal(w.res.status, status, path);
      assert.ok(w.invocation, `${path} ran the worker`);
    }
    // Written with the other slash, a page URL is redirected by the assets (307: Workers' own), as Node redirects it (301).
    const home = await view(worker.url, '/fr');
    assert.equal(home.res.headers.get('location'), '/fr/');
    assert.equal(home.invocation, null);
  });
});

describe('past FOLIO_WORKERS_MAX_ASSETS: the build the worker reads in R2', { skip }, () => {
  const LIMIT = 400;
  let dir: string;
  let worker: RunningServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-cf-r2-'));
    await writeCloudflare(DIST, ROOTS.map((r) => r.name), dir, { negotiate: false, maxAssets: LIMIT });
    worker = await startServer({ RATE_LIMIT: '0', FOLIO_CLOUDFLARE_DIR: dir, FOLIO_PREVIEW_INVOCATIONS: '1' }, 'cloudflare');
  });
  after(async () => {
    await worker?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('wrangler.jsonc binds the bucket; the assets hold at most the limit, R2 the manifest, the bundles, the answers and the pages past it', async () => {
    assert.deepEqual((await config(dir)).r2_buckets, [{ binding: 'ARTEFACT', bucket_name: 'folio-artefact' }]);
    assert.ok(filesUnder(join(dir, 'assets')).length <= LIMIT, 'assets within the limit');
    const objects = filesUnder(join(dir, 'r2'));
    for (const key of ['/_folio/manifest.json', '/_folio/bundle/main/catalog.json', '/_folio/site/api/posts/index.json']) assert.ok(objects.includes(key), key);
    assert.ok(!existsSync(join(dir, 'assets', '_folio')), 'nothing private among the assets');
  });

  test('the worker answers from R2 as Node does: a page past the limit, the API, a search; a page among the assets still invokes nothing', async () => {
    const worker_ = await liveManifest(join(dir, 'r2/_folio'));
    const inR2 = Object.entries(worker_.paths).find(([, e]) => e.query === 'none' && !e.offers && typeof e.answers[''] === 'number' && worker_.files[e.answers[''] as number]!.file.startsWith('/_folio/site/') && worker_.files[e.answers[''] as number]!.type.startsWith('text/html'))![0];
    const node = await startServer({ RATE_LIMIT: '0' }, 'node');
    try {
      for (const path of [inR2, '/api/posts/the-slow-web', '/api/posts?lang=fr&per_page=3', '/api/search?q=tide', '/the-slow-web.md']) {
        const [w, n] = [await view(worker.url, path), await view(node.url, path)];
        assert.equal(w.res.status, 200, path);
        assert.ok(w.invocation, `${path} ran the worker`);
        if (!path.startsWith('/api/search')) assert.deepEqual(w.body, n.body, `${path}: the bytes Node sends`);
        else assert.ok((JSON.parse(w.body.toString()) as { data: unknown[] }).data.length > 0, 'search reads its index from R2');
      }
      const home = await view(worker.url, '/');
      assert.equal(home.res.status, 200);
      assert.equal(home.invocation, null, 'the home is among the assets');
    } finally {
      await node.stop();
    }
  });
});
