import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frontBase, frontFiles, frontRules, MALFORMED_QUERY } from '../../src/pipeline/targets/front-files.ts';
import { parseHeaders, staticHostRules } from '../../src/pipeline/targets/static-host-rules.ts';
import type { Manifest, ManifestFile } from '../../src/artefact/manifest.ts';

const API = 'public, max-age=60, s-maxage=300, stale-while-revalidate=86400';
const PAGE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
const file = (name: string, type: string, cacheControl: string): ManifestFile => ({ file: name, type, etag: '"x"', length: 1, cacheControl });

function manifest(files: ManifestFile[], paths: Manifest['paths'], configDependent: string[] = []): Manifest {
  return { version: 4, build: 'b', created: '', limits: { rateLimit: 1, rateWindowSeconds: 1, bodyLimit: 1 }, configDependent, files, holders: [], paths, notFound: {}, unavailable: {} };
}

const demo = manifest(
  [file('/index.html', 'text/html; charset=utf-8', PAGE), file('/x.html', 'text/html; charset=utf-8', PAGE), file('/api/posts/x/index.json', 'application/json; charset=utf-8', API), file('/feed.xml', 'application/rss+xml; charset=utf-8', API), file('/agents.md', 'text/markdown; charset=utf-8', API), file('/api/index.json', 'application/json; charset=utf-8', API), file('/api.html', 'text/html; charset=utf-8', PAGE)],
  {
    '/': { query: 'none', answers: { '': 0 } },
    '/x': { query: 'none', offers: ['html', 'json'], answers: { '': { html: 1, json: 2 } } },
    '/api/posts/x': { query: 'content', answers: { '': 2, 'lang=fr': 2 } },
    '/feed.xml': { query: 'none', answers: { '': 3 } },
    '/agents.md': { query: 'none', answers: { '': 4 } },
    '/api': { query: 'none', offers: ['json', 'html'], answers: { '': { json: 5, html: 6 } } },
  },
  ['/agents.md'],
);

test('a front serves the published files that are not JSON, in their default representation, at the URL plus its type key', () => {
  const names = frontFiles(demo).map((f) => f.name).sort();
  // JSON (counted by Node), a guide printing the limits, a URL whose default is JSON: none of them.
  assert.deepEqual(names, ['/..html', '/feed.xml.rss', '/x.v-html']);
  assert.equal(frontBase('/fr/'), '/fr/.');
  assert.equal(frontBase('/fr/x'), '/fr/x');
});

test('the rules: one type and one Cache-Control per key, the keys to try by URL extension (a negotiated page first)', () => {
  const rules = frontRules(frontFiles(demo));
  assert.deepEqual(Object.fromEntries(rules.types), { html: 'text/html; charset=utf-8', 'v-html': 'text/html; charset=utf-8', rss: 'application/rss+xml; charset=utf-8' });
  assert.deepEqual(Object.fromEntries(rules.extensions), { '': ['v-html', 'html'], xml: ['rss'] });
  assert.equal(Object.fromEntries(rules.cacheByKey).rss, API);
  const clash = frontFiles(demo).concat({ name: '/y.rss', file: file('/y.xml', 'application/rss+xml; charset=utf-8', PAGE) });
  assert.throws(() => frontRules(clash), /Cache-Control/);
});

test('a malformed escape in a query string is what Node refuses', () => {
  for (const q of ['q=%zz', 'q=%4', 'q=%', 'a=%e0%a4%a']) assert.ok(MALFORMED_QUERY.test(q), q);
  for (const q of ['q=%20x', 'lang=fr&page=2', 'q=%E6%97%A5']) assert.ok(!MALFORMED_QUERY.test(q), q);
});

test('_headers blocks are read back for a plain server', () => {
  assert.deepEqual(parseHeaders('/*\n  a: 1\n  b: x: y\n/feed.xml\n  Content-Type: application/rss+xml\n'), [
    { path: '/*', headers: [['a', '1'], ['b', 'x: y']] },
    { path: '/feed.xml', headers: [['Content-Type', 'application/rss+xml']] },
  ]);
});

test('a plain server\'s rules: headers on every answer, blocks with their type apart, redirects with their splat, types by extension', () => {
  const rules = staticHostRules(
    manifest([file('/feed.xml', 'application/rss+xml; charset=utf-8', API), file('/x/index.json', 'application/json; charset=utf-8', API)], {}),
    { json: 'application/json', xml: 'application/xml' },
    '/*\n  a: 1\n/_astro/*\n  cache-control: immutable\n/feed.xml\n  Content-Type: application/rss+xml\n',
    '/en / 301\n/en/* /:splat 301\n/api /api/index.json 200\n',
  );
  assert.deepEqual(rules.all, [['a', '1']]);
  assert.deepEqual(rules.located, [
    { path: '/_astro/', prefix: true, headers: [['cache-control', 'immutable']] },
    { path: '/feed.xml', prefix: false, type: 'application/rss+xml', headers: [] },
  ]);
  assert.deepEqual(rules.redirects, [
    { from: '/en', to: '/', status: 301, prefix: false },
    { from: '/en/', to: '/:splat', status: 301, prefix: true },
  ]);
  assert.deepEqual(rules.types, [
    ['xml', 'application/rss+xml; charset=utf-8'],
    ['json', 'application/json; charset=utf-8'],
  ]);
});
