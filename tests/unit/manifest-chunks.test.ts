import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MANIFEST_VERSION, type Manifest, type ManifestFile, type ManifestPath } from '../../src/artefact/manifest.ts';
import { chunkFile, joinManifest, splitManifest } from '../../src/artefact/manifest-chunks.ts';
import { storedManifest } from '../../src/artefact/manifest-view.ts';
import type { ArtefactStore } from '../../src/artefact/storage.ts';
import { publishedFiles } from '../../src/app/published.ts';

const LANGS = ['en', 'fr', 'de'];

/** A manifest of `posts` posts in three languages: a page, a detail per language, and a list with a page per 10 posts and language. */
function manifestOf(posts: number): Manifest {
  const files: ManifestFile[] = [];
  const add = (file: string, type = 'application/json; charset=utf-8', held?: number) => files.push({ file, type, etag: `"${file}"`, length: 1, cacheControl: 'no-store', ...(held === undefined ? {} : { held }) }) - 1;
  const paths: Record<string, ManifestPath> = {};
  const list: ManifestPath = { query: 'list', answers: { '': add('/api/posts/index.json') } };
  for (const lang of LANGS) for (let page = 1; page <= Math.ceil(posts / 10); page++) list.answers[`lang=${lang}&page=${page}`] = add(`/api/posts/_query/lang=${lang}&page=${page}.json`);
  paths['/api/posts'] = list;
  const unavailable: Record<string, number> = {};
  for (let i = 0; i < posts; i++) {
    const detail: ManifestPath = { query: 'content', answers: {} };
    for (const lang of LANGS) detail.answers[`lang=${lang}`] = add(`/api/posts/p${i}/_query/lang=${lang}.json`, undefined, i % 7 === 0 ? 0 : undefined);
    paths[`/api/posts/p${i}`] = detail;
    const html = add(`/p${i}.html`, 'text/html; charset=utf-8');
    const md = add(`/p${i}.md`, 'text/markdown; charset=utf-8');
    paths[`/p${i}.md`] = { query: 'none', answers: { '': md } };
    paths[`/p${i}`] = { query: 'none', offers: ['html', 'json', 'markdown'], answers: { '': { html, json: detail.answers['lang=en'] as number, markdown: md } } };
    if (i % 5 === 0) unavailable[`/de/p${i}`] = add(`/de/_not-found/p${i}.html`, 'text/html; charset=utf-8');
  }
  const notFound = { '': add('/_not-found.html', 'text/html; charset=utf-8'), '/fr': add('/fr/_not-found.html', 'text/html; charset=utf-8') };
  return { version: MANIFEST_VERSION, build: 'b', created: 'now', limits: { rateLimit: 1, rateWindowSeconds: 1, bodyLimit: 1 }, configDependent: [], files, holders: ['earlier'], paths, notFound, unavailable };
}

/** What each request key answers with, by file name: equal for equal manifests, whatever the order of their files. */
function answersOf(m: Manifest): Record<string, unknown> {
  const name = (i: number) => m.files[i]!;
  const out: Record<string, unknown> = {};
  for (const [path, entry] of Object.entries(m.paths)) {
    for (const [q, a] of Object.entries(entry.answers)) out[`${path}?${q}`] = [entry.query, entry.offers, typeof a === 'number' ? name(a) : Object.fromEntries(Object.entries(a).map(([o, i]) => [o, name(i!)]))];
  }
  for (const [p, i] of Object.entries(m.unavailable)) out[`unavailable ${p}`] = name(i);
  for (const [p, i] of Object.entries(m.notFound)) out[`notFound ${p}`] = name(i);
  return out;
}

test('the stored manifest: split into a root and chunks, joined back to the same manifest', () => {
  const m = manifestOf(300);
  const { root, chunks } = splitManifest(m);
  assert.equal(root.chunks, chunks.length);
  const joined = joinManifest(root, chunks);
  assert.deepEqual(answersOf(joined), answersOf(m));
  assert.equal(joined.files.length, m.files.length);
  assert.deepEqual({ ...joined, files: [], paths: {}, notFound: {}, unavailable: {} }, { ...m, files: [], paths: {}, notFound: {}, unavailable: {} });
  // Held files keep their holder.
  assert.equal(joined.files.filter((f) => f.held === 0).length, m.files.filter((f) => f.held === 0).length);
  // Joining is deterministic: a manifest split again and joined is the same object.
  const again = splitManifest(joined);
  assert.deepEqual(joinManifest(again.root, again.chunks), joined);
});

test('no part of the stored manifest grows with the corpus: the root stays the same size, chunks stay small, only their count grows', () => {
  const sizes = [100, 3000].map((posts) => {
    const { root, chunks } = splitManifest(manifestOf(posts));
    return { root: JSON.stringify(root).length, largest: Math.max(...chunks.map((c) => JSON.stringify(c).length)), count: chunks.length };
  });
  // The same but for the digits of the chunk count.
  assert.ok(Math.abs(sizes[0]!.root - sizes[1]!.root) < 8, `root ${sizes[0]!.root}, then ${sizes[1]!.root} bytes`);
  assert.ok(sizes[1]!.count >= 16 * sizes[0]!.count, `${sizes[0]!.count} chunks, then ${sizes[1]!.count}`);
  // The list's 900 pages (its query answers) are spread over the chunks with everything else.
  for (const s of sizes) assert.ok(s.largest < 64 * 1024, `largest chunk ${s.largest} bytes`);
});

test('a host reads the root, then only the chunks a request needs, once', async () => {
  const { root, chunks } = splitManifest(manifestOf(3000));
  const reads: string[] = [];
  const files = new Map<string, unknown>([['manifest.json', root], ...chunks.map((c, k) => [chunkFile(k), c] as const)]);
  const store: ArtefactStore = {
    async get(path) {
      reads.push(path);
      const value = files.get(path);
      return value === undefined ? null : new TextEncoder().encode(JSON.stringify(value));
    },
  };
  const view = await storedManifest(store);
  const published = publishedFiles(view, async () => new Uint8Array(), 1 << 20);
  assert.deepEqual(reads, ['manifest.json']);
  // A list page: the path's chunk (its query shape), then the chunk of its query.
  assert.equal((await published.find('/api/posts', 'page=42&lang=fr', undefined))?.file.file, '/api/posts/_query/lang=fr&page=42.json');
  assert.ok(reads.length <= 3, reads.join(' '));
  const after = reads.length;
  assert.equal((await published.find('/api/posts', 'lang=fr&page=42', undefined))?.file.file, '/api/posts/_query/lang=fr&page=42.json');
  assert.equal(reads.length, after, 'kept: no read again');
  assert.equal((await published.find('/p12', '', 'text/markdown'))?.file.file, '/p12.md');
  assert.equal((await published.notFound('/de/p10'))?.file.file, '/de/_not-found/p10.html');
  assert.equal((await published.notFound('/fr/nothing'))?.file.file, '/fr/_not-found.html');
  assert.equal(await published.find('/nothing', '', undefined), undefined);
  // Each request read at most its own chunks: a few of the hundreds.
  assert.ok(reads.length <= 12 && chunks.length > 100, `${reads.length} reads of ${chunks.length + 1} files`);
  // Concurrent requests for a chunk not read yet share one read.
  const before = reads.length;
  await Promise.all([published.find('/p2999', '', undefined), published.find('/p2999', '', undefined)]);
  assert.ok(reads.length - before <= 1);
});
