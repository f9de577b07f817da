import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PUBLISH } from '../../src/artefact/roots.ts';
import { liveManifest } from '../helpers/manifest.ts';
import { answerFile } from '../../src/pipeline/publish/answer-file.ts';
import { pageFileAt } from '../../src/site/page-specs.ts';
import { useServer } from '../helpers/server.ts';
import { COMPUTED, load, sameAsNode, serveFolder, type Handler } from '../helpers/host-function.ts';

// Netlify cannot run here (tests/e2e/netlify.test.ts runs it under @netlify/dev, opt-in): its output
// (npm test builds it with --target all) is checked against the documented formats, and its function
// entry is called in-process with Web Requests, answering as `npm start` does. Vercel's: vercel.test.ts.
const node = useServer({ RATE_LIMIT: '0' });
const out = (...p: string[]) => join(PUBLISH.out, ...p);
const absent = (dir: string) => (existsSync(dir) ? false : `${dir} is absent: run \`npm run build -- --target all\``);

describe('Netlify output', { skip: absent(out('netlify')) }, () => {
  // tests/e2e/netlify.test.ts runs the whole output under @netlify/dev; here, its files and the function alone.
  test('netlify.toml, the whole static artefact for the CDN, and the build the function reads among its files (no site files but the search pages)', async () => {
    const toml = await readFile(out('netlify', 'netlify.toml'), 'utf8');
    for (const line of ['[build]', 'publish = "static"', 'edge_functions = "edge-functions"', '[functions]', 'directory = "functions"']) assert.ok(toml.includes(line), line);
    assert.ok(!toml.includes('included_files'), 'the function carries no files');
    assert.ok(!existsSync(out('netlify', 'build')));
    const cdn = await readdir(out('netlify', 'static'), { recursive: true });
    for (const f of ['_headers', '_redirects', '404.html', 'favicon.svg', join('api', 'posts', 'index.json'), join('the-slow-web', 'index.html'), 'feed.xml']) assert.ok(cdn.includes(f), f);
    // Netlify's CDN compresses what it serves: the precompressed copies would only add files.
    assert.deepEqual(cdn.filter((f) => /\.(br|gz)$/.test(f)), []);
    const [artefact, ...others] = await readdir(out('netlify', 'static', '_folio', 'a'));
    assert.match(artefact!, /^[0-9a-f]{32}$/);
    assert.deepEqual(others, []);
    const shipped = await readdir(out('netlify', 'static', '_folio', 'a', artefact!, 'site', 'client'), { recursive: true });
    assert.ok(shipped.every((f) => /(^|\/)search\.html$/.test(f) || !f.includes('.')), 'of the site, the search pages only');
    assert.deepEqual(await liveManifest(out('netlify', 'static', '_folio', 'a', artefact!)), await liveManifest());
    const redirects = await readFile(out('netlify', 'static', '_redirects'), 'utf8');
    // Most specific first; an unpublished parameter goes to the function before any published rule.
    const at = (rule: string) => redirects.indexOf(rule);
    assert.ok(at('/api/posts per_page=:value /_folio/fn/api/posts 200') >= 0);
    assert.ok(at('/api/posts per_page=:value') < at('/api/posts lang=fr fallback=en page=2 /api/posts/_query/lang=fr&fallback=en&page=2.json 200'));
    assert.ok(at('/api/posts lang=fr fallback=en page=2 ') < at('/api/posts lang=fr /api/posts/_query/lang=fr.json 200'));
    assert.ok(at('/api/posts lang=fr /api') < at('/api/posts lang=:value /_folio/fn/api/posts 200'));
    assert.ok(at('/api/posts/:slug lang=fr /api/posts/:slug/_query/lang=fr.json 200') >= 0);
  });

  test('a Functions 2.0 handler on the computed paths only, answering as npm start does with the build read from the CDN', async (t) => {
    const cdn = await serveFolder(out('netlify', 'static'));
    t.after(() => cdn.close());
    const fn = await load<{ default: Handler; config: { path: string[]; preferStatic: boolean } }>(out('netlify', 'functions', 'folio.mjs'), { EVENT_SIGNING_SECRET: 'test-secret', FOLIO_ARTEFACT_URL: cdn.url });
    assert.equal(typeof fn.default, 'function');
    for (const p of ['/api/search', '/graphql', '/mcp', '/ask', '/status', '/sandbox/api/search', '/_folio/fn/*']) assert.ok(fn.config.path.includes(p), p);
    const manifest = await liveManifest();
    for (const p of fn.config.path) assert.ok(!(p in manifest.paths), `${p} is published: the CDN serves it`);
    await sameAsNode(node.url, fn.default, 'https://folio.netlify.app', COMPUTED);
    // What a rule rewrote to the function is answered for its own path.
    const viaRule = await fn.default(new Request('https://folio.netlify.app/_folio/fn/api/posts?per_page=3'));
    assert.equal(await viaRule.text(), await (await fetch(`${node.url}/api/posts?per_page=3`, { headers: { 'accept-encoding': 'identity' } })).text());
  });

  test('without EVENT_SIGNING_SECRET only the streams answer 503, with one line in the log', async (t) => {
    // The function's log is console.error: taken here, where it is expected, and checked.
    const logged = t.mock.method(console, 'error', () => {});
    // The bundled app itself, imported afresh (the entry re-exports one module instance, loaded with a secret above).
    const cdn = await serveFolder(out('netlify', 'static'));
    t.after(() => cdn.close());
    const fn = await load<{ default: Handler }>(out('netlify', 'function', 'folio.mjs'), { EVENT_SIGNING_SECRET: undefined, FOLIO_ARTEFACT_URL: cdn.url });
    const read = await fn.default(new Request('https://folio.netlify.app/api/search?q=tide'));
    assert.equal(read.status, 200);
    const stream = await fn.default(new Request('https://folio.netlify.app/api/stream/search?q=tide', { headers: { accept: 'text/event-stream' } }));
    assert.equal(stream.status, 503);
    assert.equal(stream.headers.get('access-control-allow-origin'), '*');
    assert.match(((await stream.json()) as { error: string }).error, /EVENT_SIGNING_SECRET/);
    const ask = await fn.default(new Request('https://folio.netlify.app/ask?query=tide&streaming=true'));
    assert.equal(ask.status, 503);
    const lines = logged.mock.calls.map((c) => String(c.arguments[0]));
    assert.deepEqual(lines, ['EVENT_SIGNING_SECRET is not set: search and /ask streams answer 503 until the same secret is set on every instance; everything else is served.']);
  });
});

describe('static output (no functions)', { skip: absent(out('static')) }, () => {
  test('every published URL without a query is a file or a rewrite; each query has its path form; 404.html, _headers, _redirects', async () => {
    const manifest = await liveManifest();
    const redirects = await readFile(out('static', '_redirects'), 'utf8');
    const rewrites = new Map(redirects.split('\n').filter((l) => / 200$/.test(l)).map((l) => l.split(' ') as [string, string, string]).map(([from, to]) => [from, to]));
    for (const [path, entry] of Object.entries(manifest.paths)) {
      for (const [query, answer] of Object.entries(entry.answers)) {
        const i = typeof answer === 'number' ? answer : answer[entry.offers![0]!]!;
        const { file, type } = manifest.files[i]!;
        // A page (the build's /x.html) is where a host looks for its URL: /x/index.html.
        const page = file === pageFileAt(path);
        const placed = page ? `${path.replace(/\/$/, '')}/index.html` : file;
        assert.ok(existsSync(out('static', placed)), placed);
        if (page && placed !== file) assert.ok(!existsSync(out('static', file)), `${file} is only at ${placed}`);
        // Answers with the same bytes share a file in the build; the static output has each at its own name.
        const own = answerFile(path, query, type);
        if (query) {
          assert.match(own, /\/_query\/[^/]+\.json$/, `${path}?${query} has a path form`);
          assert.deepEqual(await readFile(out('static', own)), await readFile(out('static', file)), own);
        }
        else if (!page && file !== path) assert.equal(rewrites.get(path), file, `${path} is rewritten to ${file}`);
      }
    }
    assert.equal(rewrites.get('/api/posts'), '/api/posts/index.json');
    // Feeds are RSS and the API catalog a linkset with its Link header, not what their extensions say.
    const headers = await readFile(out('static', '_headers'), 'utf8');
    assert.match(headers, /^\/feed\.xml\n {2}Content-Type: application\/rss\+xml; charset=utf-8$/m);
    assert.match(headers, /^\/\.well-known\/api-catalog\n {2}Content-Type: application\/linkset\+json; profile="[^"]+"\n {2}link: <\/\.well-known\/api-catalog>/m);
    assert.match(headers, /^\/\*\n {2}access-control-allow-origin: \*$/m);
    assert.ok(redirects.startsWith('/en /  301'));
    for (const f of ['404.html', '_headers']) assert.ok(existsSync(out('static', f)), f);
  });
});
