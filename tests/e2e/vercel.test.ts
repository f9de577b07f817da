import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, PUBLISH } from '../../src/artefact/roots.ts';
import { fileAt } from '../../src/artefact/client-files.ts';
import type { Manifest } from '../../src/artefact/manifest.ts';
import { VC_CONFIG } from '../../src/pipeline/targets/vercel.ts';
import { FUNCTION_PATH, type VercelOverrides, type VercelRoute } from '../../src/pipeline/targets/vercel-config.ts';
import { liveManifest, publishedRequests } from '../helpers/manifest.ts';
import { useServer } from '../helpers/server.ts';
import { COMPUTED, load, REQUESTS, sameAsNode, serveFolder, type Handler } from '../helpers/host-function.ts';
import { route, type Deployment, type RouteRequest } from '../helpers/vercel-routes.ts';

// Vercel cannot run here: its Build Output (npm test builds it with --target all) is routed by a
// small evaluator of the documented route semantics over the output's own file list
// (tests/helpers/vercel-routes.ts), which says which layer answers each request (a static file, the
// function, a route), and the function entry is called in-process with Web Requests, answering as
// `npm start` does. docs/deploy-vercel.md lists what only a preview deploy can show.
const BASE = join(PUBLISH.out, 'vercel', '.vercel', 'output');
const skip = existsSync(join(BASE, 'config.json')) ? false : `${BASE} is absent: run \`npm run build -- --target vercel\``;
const node = useServer({ RATE_LIMIT: '0', EVENT_SIGNING_SECRET: 'test-secret' });
const ORIGIN = 'https://folio.vercel.app';

describe('Vercel output (Build Output API v3)', { skip }, () => {
  let routes: VercelRoute[];
  let overrides: VercelOverrides;
  let deployment: Deployment;
  let manifest: Manifest;
  before(async () => {
    if (skip) return;
    const config = JSON.parse(await readFile(join(BASE, 'config.json'), 'utf8')) as { version: number; routes: VercelRoute[]; overrides: VercelOverrides };
    assert.equal(config.version, 3);
    ({ routes, overrides } = config);
    // A file is served at its override's path, and no longer at its own name.
    const files = new Map<string, string>();
    for (const rel of await readdir(join(BASE, 'static'), { recursive: true, withFileTypes: true })) {
      if (!rel.isFile()) continue;
      const name = join(rel.parentPath, rel.name).slice(join(BASE, 'static').length + 1);
      files.set(`/${overrides[name]?.path ?? name}`, name);
    }
    const functions = new Set((await readdir(join(BASE, 'functions'))).map((f) => `/${f.replace(/\.func$/, '')}`));
    deployment = { files, functions };
    manifest = await liveManifest();
  });
  const at = (request: RouteRequest) => route(routes, deployment, request);

  test('config.json: policies, code and headers before the file system; the function on its routes only, no catch-all', () => {
    const filesystem = routes.findIndex((r) => 'handle' in r && r.handle === 'filesystem');
    assert.ok(filesystem > 0);
    const toFunction = routes.filter((r) => 'dest' in r && r.dest === FUNCTION_PATH);
    assert.ok(toFunction.length > 10);
    // After the file system, only an API path or a post's URL no file answers (a 404 as Node words it).
    const after = toFunction.filter((r) => routes.indexOf(r) > filesystem);
    assert.equal(after.length, 2);
    assert.ok(after.every((r) => 'headers' in r && r.headers?.['cache-control'] === 'no-store'));
    // Bounded by the route patterns, not by the posts: Vercel takes 2,048 routes.
    assert.ok(routes.length < 300, `${routes.length} routes`);
    assert.deepEqual([...deployment.functions], [FUNCTION_PATH]);
    // Before it, no route sends a published URL there without a condition (no catch-all).
    for (const r of toFunction.filter((r) => !after.includes(r))) for (const p of ['/', '/the-slow-web', '/api/posts', '/feed.xml', '/fr/']) assert.ok(!('src' in r) || !new RegExp(r.src, 'i').test(p) || (r.has ?? []).length > 0, `${JSON.stringify(r)} catches ${p}`);
  });

  test('every published page, feed, document and JSON answer is a static file with Node\'s caching and types; none invokes the function', async () => {
    const wrong: string[] = [];
    let reads = 0;
    for (const { target, accept, file } of publishedRequests(manifest)) {
      // Vercel's `has` reads parameters by name: a query's order does not matter.
      const [path, query] = target.split('?') as [string, string | undefined];
      const reordered = query ? `${path}?${query.split('&').reverse().join('&')}` : target;
      const what = `${reordered} (${accept ?? 'no Accept'})`;
      const entry = manifest.paths[path]!;
      const got = at({ url: reordered, headers: accept ? { accept } : {} });
      // An agent's JSON or Markdown at a page URL, and the API index's HTML, are negotiated by the function.
      const byFunction = accept !== undefined && entry.offers !== undefined && accept !== (entry.offers[0] === 'html' ? 'text/html' : 'application/json');
      if (byFunction) {
        if (got.layer !== 'function') wrong.push(`${what}: ${got.layer}, not the function`);
        continue;
      }
      reads++;
      if (got.layer !== 'static' || got.status !== 200) {
        wrong.push(`${what}: ${got.layer} ${got.status}`);
        continue;
      }
      const bytes = await readFile(join(BASE, 'static', got.target!));
      if (!bytes.equals(await readFile(fileAt(DIST, manifest, file)))) wrong.push(`${what}: ${got.target} is not ${file.file}`);
      if (got.headers['cache-control'] !== file.cacheControl) wrong.push(`${what}: cache-control ${got.headers['cache-control']}, not ${file.cacheControl}`);
      if (got.headers['access-control-allow-origin'] !== '*' || got.headers['x-content-type-options'] !== 'nosniff') wrong.push(`${what}: no CORS or security headers`);
      if ((got.headers.vary === 'Accept') !== (entry.offers !== undefined)) wrong.push(`${what}: vary ${got.headers.vary}`);
      const type = overrides[got.target!]?.contentType;
      if (type !== undefined && type !== file.type) wrong.push(`${what}: typed ${type}, not ${file.type}`);
      for (const [k, v] of Object.entries(file.headers ?? {})) if (got.headers[k] !== v) wrong.push(`${what}: ${k} ${got.headers[k]}`);
    }
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} published answers differ`);
    assert.ok(reads > 2000, `${reads} static reads`);
    // Feeds are RSS and the API catalog a linkset, whatever their extensions say.
    assert.equal(overrides['feed.xml']?.contentType, 'application/rss+xml; charset=utf-8');
    // An agent's JSON or Markdown goes to the function only where Node picks it; the page stays the CDN's.
    for (const [accept, layer] of [
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'static'],
      ['*/*', 'static'],
      ['text/html, application/json;q=0.1', 'static'],
      ['application/json;q=0.5, */*', 'static'],
      ['application/json, */*;q=0.1', 'function'],
      ['text/markdown', 'function'],
    ]) assert.equal(at({ url: '/fr/the-archive-problem', headers: { accept: accept! } }).layer, layer, accept);
  });

  test('computed requests reach the function, which answers them as npm start does', async (t) => {
    const agents = REQUESTS.filter(({ path, init }) => path === '/the-slow-web' && init?.headers);
    const apiIndexHtml = { path: '/api', init: { headers: { accept: 'text/html' } } };
    const unknownAsJson = { path: '/no-such-page', init: { headers: { accept: 'application/json' } } };
    const computed: { path: string; init?: RequestInit }[] = [...COMPUTED.filter(({ init }) => !(init?.headers as Record<string, string> | undefined)?.authorization), ...agents, apiIndexHtml, unknownAsJson];
    for (const target of ['/no-such-page', '/fr/no-such-page', '/ar/about', '/fr', '/api/nothing', '/api/posts/no-such-post', '/api/posts/no-such-post?lang=fr', '/api/posts?lang=FR', '/api/posts?page=1&lang=fr&per_page=5', '/api/posts/the-slow-web?lang=xx', '/search?q=tide', '/sandbox/api/search?q=tide', '/status', '/ask?query=tide']) computed.push({ path: target });
    for (const { path, init } of computed) {
      const got = at({ url: path, method: init?.method, headers: init?.headers as Record<string, string> | undefined });
      assert.equal(got.layer, 'function', `${init?.method ?? 'GET'} ${path}`);
    }
    const func = join(BASE, 'functions', 'folio.func');
    assert.deepEqual(JSON.parse(await readFile(join(func, '.vc-config.json'), 'utf8')), VC_CONFIG);
    // The function carries its code only; the build it reads is among the CDN's files, at an unguessable path.
    assert.deepEqual((await readdir(func)).sort(), ['.vc-config.json', 'index.mjs']);
    const [artefact, ...others] = await readdir(join(BASE, 'static', '_folio', 'a'));
    assert.match(artefact!, /^[0-9a-f]{32}$/);
    assert.deepEqual(others, []);
    const shipped = await readdir(join(BASE, 'static', '_folio', 'a', artefact!, 'site', 'client'), { recursive: true });
    assert.ok(shipped.every((f) => /(^|\/)(search|api)\.html$|_not-found/.test(f) || !f.includes('.')), 'of the site, the search pages, the API index page and the not-found pages only');
    const cdn = await serveFolder(join(BASE, 'static'));
    t.after(() => cdn.close());
    const fn = await load<{ default: { fetch: Handler } }>(join(func, 'index.mjs'), { EVENT_SIGNING_SECRET: 'test-secret', FOLIO_ARTEFACT_URL: cdn.url });
    await sameAsNode(node.url, fn.default.fetch, ORIGIN, computed.filter(({ path }) => path !== '/status'));
    // It read what those answers needed, each a static file of the deployment (no read invokes a function).
    assert.ok(cdn.asked.includes(`/_folio/a/${artefact}/manifest.json`));
    assert.ok(cdn.asked.some((p) => p.includes('/bundle/main/search/en.')), 'a search read the English index');
    assert.ok(!cdn.asked.some((p) => p.includes('/bundle/main/search/ko.')), 'no search read the Korean index');
    for (const path of new Set(cdn.asked)) assert.equal(at({ url: path }).layer, 'static', path);
  });

  test('the bearer 401 and the preflight by route, as Node answers them', async () => {
    const bearer = at({ url: '/api/posts', headers: { authorization: 'Bearer x' } });
    assert.equal(bearer.status, 401);
    assert.equal(bearer.layer, 'static', 'a route answers with its body file');
    const viaNode = await fetch(`${node.url}/api/posts`, { headers: { authorization: 'Bearer x' } });
    for (const h of ['content-type', 'cache-control', 'access-control-allow-origin']) assert.equal(bearer.headers[h], viaNode.headers.get(h), h);
    // The metadata is on the site's own origin (Node's SITE_URL; on Vercel the request's host).
    const origin = (h: string | null | undefined) => h?.replace(/resource_metadata="https?:\/\/[^/]+/, 'resource_metadata="');
    assert.equal(origin(bearer.headers['www-authenticate']), origin(viaNode.headers.get('www-authenticate')));
    assert.match(bearer.headers['www-authenticate']!, /resource_metadata="https:\/\/folio\.vercel\.app\//);
    assert.equal(await readFile(join(BASE, 'static', bearer.target!), 'utf8'), await viaNode.text());
    // Another scheme is not a bearer token: the file is served.
    assert.equal(at({ url: '/api/posts', headers: { authorization: 'Basic eDp5' } }).layer, 'static');
    const options = at({ url: '/api/posts', method: 'OPTIONS' });
    assert.equal(options.layer, 'route');
    assert.equal(options.status, 204);
    const preflight = await fetch(`${node.url}/api/posts`, { method: 'OPTIONS' });
    for (const h of ['access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age', 'access-control-allow-origin']) assert.equal(options.headers[h], preflight.headers.get(h), h);
  });

  test('what no file answers: the /en redirects and the not-found pages of the roots, as Node answers', async () => {
    for (const path of ['/en/the-slow-web', '/en', '/sandbox/en/first-steps']) {
      const got = at({ url: path });
      const viaNode = await fetch(node.url + path, { redirect: 'manual' });
      assert.equal(got.status, viaNode.status, path);
      assert.equal(got.headers.location, viaNode.headers.get('location'), path);
    }
    for (const path of ['/no/such/page', '/fr/tag/no-such-tag', '/sandbox/fr/no/such', '/sandbox/nothing.txt']) {
      const got = at({ url: path });
      const viaNode = await fetch(node.url + path, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(got.status, 404, path);
      assert.equal(viaNode.status, 404, path);
      assert.equal(got.layer, 'static', path);
      assert.equal(got.headers['cache-control'], viaNode.headers.get('cache-control'), path);
      assert.equal(await readFile(join(BASE, 'static', got.target!), 'utf8'), await viaNode.text(), path);
    }
  });
});
