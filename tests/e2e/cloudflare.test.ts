import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PUBLISH, ROOTS } from '../../src/artefact/roots.ts';
import { liveManifest } from '../helpers/manifest.ts';
import { WORKER_FIRST } from '../../src/pipeline/targets/cloudflare.ts';
import { markedProcesses, MARK, markFor } from '../helpers/marked-processes.ts';
import { startServer, type RunningServer, ONE_WINDOW } from '../helpers/server.ts';

// The Workers project `npm run build -- --target cloudflare` writes (npm test builds it), checked
// as files, then run on workerd by `npm run preview:cloudflare`.
const OUT = join(PUBLISH.out, 'cloudflare');
const built = existsSync(join(OUT, 'wrangler.jsonc'));
const skip = built ? false : `${OUT} is absent: run \`npm run build -- --target cloudflare\``;

async function config() {
  const text = await readFile(join(OUT, 'wrangler.jsonc'), 'utf8');
  return JSON.parse(text.replace(/^\/\/.*$/gm, '')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('the Cloudflare Workers project', { skip }, () => {
  test('wrangler.jsonc: the worker, nodejs_compat, assets behind the worker, the Durable Object and its migration', async () => {
    const c = await config();
    assert.match(c.main, /src\/hosts\/cloudflare\/worker\.ts$/);
    assert.ok(existsSync(join(OUT, c.main)), 'the worker entry resolves from the project');
    assert.deepEqual(c.compatibility_flags, ['nodejs_compat', 'enable_request_signal']);
    assert.match(c.compatibility_date, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(c.assets, { directory: 'assets', binding: 'ASSETS', run_worker_first: WORKER_FIRST, html_handling: 'none', not_found_handling: 'none' });
    // The worker runs first everywhere but on the files that are only ever static.
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

  test('assets: every manifest file with its variants, the manifest and the bundles (without media) under /_folio', async () => {
    const manifest = await liveManifest();
    const assets = join(OUT, 'assets');
    for (const f of manifest.files) {
      assert.ok(existsSync(join(assets, f.file)), f.file);
      if (f.br !== undefined) assert.ok(existsSync(join(assets, `${f.file}.br`)), `${f.file}.br`);
    }
    assert.deepEqual(await liveManifest(join(assets, '_folio')), manifest);
    for (const r of ROOTS) {
      assert.ok(existsSync(join(assets, '_folio/bundle', r.name, 'catalog.json')), r.name);
      assert.ok(!existsSync(join(assets, '_folio/bundle', r.name, 'media')), `${r.name} media are not duplicated`);
    }
    for (const f of ['_headers', '_redirects', '404.html']) assert.ok(existsSync(join(assets, f)), f);
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

    test('a page URL still runs the worker and negotiates by Accept', async () => {
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

    test('the private build files are never served', async () => {
      for (const path of ['/_folio/manifest.json', '/_folio/bundle/main/catalog.json', '/_folio/bundle/sandbox/search/en.index.bin', '/_headers', '/api/posts/index.json.br']) {
        const res = await fetch(worker.url + path, { headers: { 'accept-encoding': 'identity' } });
        await res.arrayBuffer();
        assert.equal(res.status, 404, path);
      }
    });

    test('a published answer comes with its build-time bytes and validators, coded as published', async () => {
      const manifest = await liveManifest();
      const file = manifest.files[manifest.paths['/api/posts']!.answers[''] as number]!;
      const published = await readFile(join(OUT, 'assets', `${file.file}.br`));
      const res = await fetch(`${worker.url}/api/posts`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.headers.get('etag'), `${file.etag.slice(0, -1)}-br"`);
      assert.equal(res.headers.get('content-encoding'), 'br');
      // fetch decodes the brotli; the worker sent the published bytes (not coded twice).
      assert.equal(Buffer.from(await res.arrayBuffer()).byteLength, file.length);
      assert.ok(published.byteLength < file.length);
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
