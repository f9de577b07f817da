import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Manifest, ManifestFile } from '../../src/artefact/manifest.ts';
import { atItsUrl, DEFAULT_MAX_ASSETS, maxAssets, workersLayout } from '../../src/pipeline/targets/workers-layout.ts';
import { computedFirst } from '../../src/pipeline/targets/cloudflare.ts';
import { assetUrl } from '../../src/hosts/cloudflare/assets-bundle.ts';

// Where the Workers target puts each file (issue 38): pages and static files at their URLs, the
// rest private, no coded copies, no answers to queries, and past the limit R2.
const file = (name: string, type: string): ManifestFile => ({ file: name, type, etag: `"${name}"`, length: 10, cacheControl: 'public, max-age=0', br: 5, gzip: 6 });
const manifest: Manifest = {
  version: 4,
  build: 'b',
  created: '',
  limits: { rateLimit: 0, rateWindowSeconds: 60, bodyLimit: 1 },
  configDependent: [],
  holders: [],
  files: [
    file('/index.html', 'text/html; charset=utf-8'),
    file('/fr.html', 'text/html; charset=utf-8'),
    file('/post.html', 'text/html; charset=utf-8'),
    file('/api/posts/post/index.json', 'application/json; charset=utf-8'),
    file('/api/posts/post/_query/lang=fr.json', 'application/json; charset=utf-8'),
    file('/_astro/a.css', 'text/css; charset=utf-8'),
    file('/search.html', 'text/html; charset=utf-8'),
    file('/_not-found.html', 'text/html; charset=utf-8'),
  ],
  paths: {
    '/': { query: 'none', answers: { '': 0 } },
    '/fr/': { query: 'none', answers: { '': 1 } },
    '/post': { query: 'none', offers: ['html', 'json'], answers: { '': { html: 2, json: 4 } } },
    '/api/posts/post': { query: 'content', answers: { '': 3, 'lang=fr': 4 } },
    '/_astro/a.css': { query: 'none', answers: { '': 5 } },
    '/search': { query: 'search', answers: { '': 6 } },
  },
  notFound: { '': 7 },
  unavailable: {},
};

test('pages and static files at their URLs, a home with its slash; the rest private; no coded copies, no answers to queries', () => {
  const layout = workersLayout(manifest, 1000, 3);
  assert.equal(layout.r2, false);
  const names = Object.fromEntries(layout.files.map((p) => [manifest.files[p.index]!.file, p.name]));
  assert.deepEqual(names, {
    '/index.html': '/index.html',
    '/fr.html': '/fr/index.html',
    '/post.html': '/post.html',
    '/_astro/a.css': '/_astro/a.css',
    '/search.html': '/search.html',
    '/api/posts/post/index.json': '/_folio/site/api/posts/post/index.json',
    '/_not-found.html': '/_folio/site/_not-found.html',
  });
  assert.ok(layout.manifest.files.every((f) => f.br === undefined && f.gzip === undefined));
  assert.deepEqual(layout.manifest.paths['/api/posts/post']!.answers, { '': 3 });
  assert.deepEqual(layout.manifest.paths['/post']!.answers, { '': { html: 2 } });
  // The worker reads a page at the URL the assets' html_handling serves it at.
  assert.deepEqual(['/fr/index.html', '/post.html', '/index.html', '/_folio/site/_not-found.html', '/_astro/a.css'].map(assetUrl), ['/fr/', '/post', '/', '/_folio/site/_not-found', '/_astro/a.css']);
  // The worker first on its private files and the pages that are not always their file.
  assert.deepEqual(computedFirst(layout), ['/_folio/*', '/search']);
});

test('past the limit: the private files and the pages that do not fit go to R2, the static files and the shortest URLs stay', () => {
  const layout = workersLayout(manifest, 5, 3);
  assert.equal(layout.r2, true);
  const at = layout.files.filter(atItsUrl).map((p) => p.name);
  assert.deepEqual(at, ['/_astro/a.css', '/index.html', '/fr/index.html']);
  assert.ok(layout.files.filter((p) => !atItsUrl(p)).every((p) => p.r2 && p.name.startsWith('/_folio/site/')));
});

test('FOLIO_WORKERS_MAX_ASSETS: a whole number, else the default', () => {
  assert.equal(maxAssets({}), DEFAULT_MAX_ASSETS);
  assert.equal(maxAssets({ FOLIO_WORKERS_MAX_ASSETS: '400' }), 400);
  assert.throws(() => maxAssets({ FOLIO_WORKERS_MAX_ASSETS: 'many' }), /whole number/);
});
