import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DIST } from '../../src/artefact/roots.ts';
import { catalogFiles, catalogPartFile, CATALOG_FILE } from '../../src/bundle/catalog-file.ts';
import { diskBundle, diskCatalog } from '../../src/bundle/load-bundle.ts';
import { loadBundleCore } from '../../src/bundle/load-core.ts';
import type { BundleReader } from '../../src/bundle/reader.ts';
import type { Core } from '../../src/core/index.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';

// A core the server or a build's step loads from a disk holds its posts without their entries
// (titles, summaries, alt texts: most of a post's memory, src/bundle/lazy-catalog.ts) and reads them
// from the catalog's parts when an answer needs them. The built demo's bundle, its catalog rewritten
// a post or two a part and read with a single post's entries held (every other read again when asked
// for), answers exactly as the same bundle read whole, through every surface of the core.

const answer = async (f: () => unknown) => {
  try {
    return JSON.stringify(await f());
  } catch (e) {
    return `error ${(e as { code?: string }).code ?? (e as Error).message}`;
  }
};

async function answers(core: Core): Promise<string[]> {
  const out: string[] = [];
  const q = (o: Record<string, string>) => new URLSearchParams(o);
  const words = core.catalog.posts.flatMap((p) => p.entries.en!.title.split(/\s+/)).filter((w) => w.length > 3);
  for (const lang of LANGUAGE_CODES) {
    for (const fallback of [{}, { fallback: 'en' }] as Record<string, string>[]) {
      for (const page of ['1', '2', '3']) out.push(await answer(() => core.posts.list(q({ lang, page, per_page: '3', ...fallback }))));
      for (const kind of ['categories', 'tags'] as const) {
        out.push(await answer(() => core.terms.list(kind, q({ lang, ...fallback }))));
        for (const slug of core.index.terms[kind].keys()) out.push(await answer(() => core.terms.posts(kind, slug, q({ lang, ...fallback }))));
      }
      for (const post of core.catalog.posts) {
        out.push(await answer(() => core.posts.get(post.slug, q({ lang, ...fallback }))));
        out.push(await answer(() => core.posts.cite(post.slug, q({ lang, ...fallback }))));
      }
      for (const word of words.slice(0, 6)) out.push(await answer(() => core.search(q({ q: word, lang, ...fallback }))));
    }
    out.push(await answer(() => core.site(q({ lang }))));
  }
  out.push(JSON.stringify(core.languages()), JSON.stringify(core.catalog.posts));
  return out;
}

test('a core read from a disk reads its posts entries from the catalog parts on demand and answers as the whole catalog does', { timeout: 10 * 60_000 }, async () => {
  const bundle = resolve(DIST.bundle('main'));
  const dir = await mkdtemp(join(tmpdir(), 'folio-lazy-catalog-'));
  try {
    // The demo's bundle with its catalog in parts of at most 4 KB (a post each, as a post's record is larger).
    const catalog = (await diskCatalog(bundle))!;
    for (const name of await readdir(bundle)) if (!name.startsWith('catalog')) await symlink(join(bundle, name), join(dir, name));
    const files = catalogFiles(catalog, 4096);
    // One part written otherwise (indented): its records are not where the catalog's JSON puts them, so its posts' entries are held for good.
    for (const [name, json] of files) await writeFile(join(dir, name), name === catalogPartFile(1) ? JSON.stringify(JSON.parse(json), null, 1) : json);
    const parts = files.length - 1;
    assert.ok(parts >= 4, `the catalog in ${parts} parts`);

    const disk = diskBundle(dir);
    const reads = new Map<string, number>();
    const count = (name: string) => reads.set(name, (reads.get(name) ?? 0) + 1);
    const counted: BundleReader = {
      read: disk.read,
      readSync: (name) => (count(name), disk.readSync!(name)),
      readRangeSync: (name, offset, length) => (count(name), disk.readRangeSync!(name, offset, length)),
    };
    const lazy = await loadBundleCore(counted, { warm: false, catalogEntriesBytes: 0 });
    // Read whole, as a host without synchronous reads does.
    const whole = await loadBundleCore({ read: disk.read }, { warm: false });

    // Loading read each part once, asynchronously; a post's entries, once let go, are read again from its record's bytes.
    const catalogReads = () => [...reads].filter(([name]) => name.startsWith('catalog')).reduce((n, [, k]) => n + k, 0);
    assert.equal(catalogReads(), 0);
    const first = lazy.catalog.posts[0]!;
    const last = lazy.catalog.posts.at(-1)!;
    assert.equal(last.entries.en!.title, whole.catalog.posts.at(-1)!.entries.en!.title);
    assert.equal(catalogReads(), 0, 'the post read last is held');
    assert.equal(first.entries.en!.title, whole.catalog.posts[0]!.entries.en!.title);
    assert.equal(catalogReads(), 1, "the first post's record read again");
    assert.equal(reads.get(catalogPartFile(0)), 1);
    assert.ok(!reads.has(CATALOG_FILE), 'the root is read once, at load');

    assert.deepEqual(await answers(lazy), await answers(whole));
    assert.ok(!reads.has(catalogPartFile(1)), 'the indented part is never read again');
    // Read through a host's whole-file reads too (a post's bytes cut from its part).
    const wholeFiles = await loadBundleCore({ read: disk.read, readSync: disk.readSync }, { warm: false, catalogEntriesBytes: 0 });
    assert.deepEqual(await answers(wholeFiles), await answers(whole));
    assert.ok(catalogReads() > catalog.posts.length, `the records read again as answers needed them (${catalogReads()} reads)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
