import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG_FILE, catalogFiles, catalogPartFile, readCatalog } from '../../src/bundle/catalog-file.ts';
import type { Catalog, PostRecord } from '../../src/core/types.ts';

const post = (i: number) => ({ slug: `essay-${i}`, categories: [], tags: [], entries: { en: { title: `Essay ${i}`, summary: 'x'.repeat(i * 7) } } }) as unknown as PostRecord;
const catalog = (n: number) => ({ site_url: 'https://example.org', base: '', site: { name: 'Folio' }, term_names: {}, posts: Array.from({ length: n }, (_, i) => post(i)), pages: [], menu: [] }) as unknown as Catalog;

test('a catalog is stored as a root and parts of bounded size, and read back whole with its keys in order', async () => {
  for (const [n, bound] of [[0, 1000], [1, 1], [40, 1], [40, 600], [40, 1 << 20]] as const) {
    const whole = catalog(n);
    const files = catalogFiles(whole, bound);
    assert.equal(files.at(-1)![0], CATALOG_FILE, 'the root last');
    const parts = files.slice(0, -1);
    parts.forEach(([name, json], k) => {
      assert.equal(name, catalogPartFile(k));
      const posts = JSON.parse(json) as unknown[];
      assert.ok(Buffer.byteLength(json) <= bound || posts.length === 1, `${n} posts, bound ${bound}: part ${k} is ${Buffer.byteLength(json)} bytes of ${posts.length} posts`);
    });
    if (bound === 1 && n > 0) assert.equal(parts.length, n, 'a post a part');
    const bytes = new Map(files.map(([name, json]) => [name, new TextEncoder().encode(json)]));
    const read = await readCatalog(async (name) => bytes.get(name));
    assert.equal(JSON.stringify(read), JSON.stringify(whole), `${n} posts, bound ${bound}`);
  }
  assert.equal(await readCatalog(async () => undefined), undefined, 'no catalog');
  const files = new Map(catalogFiles(catalog(10), 100).map(([name, json]) => [name, new TextEncoder().encode(json)]));
  files.delete(catalogPartFile(1));
  await assert.rejects(readCatalog(async (name) => files.get(name)), /catalog\.posts\.1\.json/);
});
