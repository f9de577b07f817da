import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildBundle } from '../../src/pipeline/bundle.ts';
import { renderPool, type RenderPool } from '../../src/pipeline/derive/render-pool.ts';

const SITE = `name: S\ndescription: D\nauthor: A\nattribution: cite\nproduct:\n  title: P\n  description: d\n  format: PDF\n  price_usd: 1\n  currency: USD\n  landing_url: /p\n  download_url: /d\n`;
const post = (title: string) => `---\ntitle: "${title}"\ndate: 2026-01-01T00:00:00Z\ncategories: [Tech]\n---\n\n${title} body.\n`;

// The bundle step (scripts/bundle.ts) bundles the site and the sandbox with one set of render threads:
// each thread loads the whole Markdown stack, so a second set for the sandbox's few files cost a second of CPU each.
test('roots bundled with the render threads they are given render on them and leave them open for the next root', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-threads-'));
  const own = renderPool(1);
  let renders = 0;
  let closes = 0;
  const shared: RenderPool = {
    render: (...args) => {
      renders++;
      return own.render(...args);
    },
    close: async () => void closes++,
  };
  try {
    for (const root of ['one', 'two']) {
      for (const [name, text] of Object.entries({ 'site.yaml': SITE, 'posts/first/en.md': post(`${root} first`), 'posts/second/en.md': post(`${root} second`) })) {
        await mkdir(dirname(join(dir, root, name)), { recursive: true });
        await writeFile(join(dir, root, name), text);
      }
      const built = await buildBundle({ contentDir: join(dir, root), outDir: join(dir, root, 'out'), base: '', cacheDir: join(dir, 'cache'), renders: shared });
      assert.equal(built.catalog.posts.length, 2);
    }
    assert.equal(renders, 4, 'every file of both roots rendered on the threads given');
    assert.equal(closes, 0, 'the threads are the caller\'s to close');
  } finally {
    await own.close();
    await rm(dir, { recursive: true, force: true });
  }
});
