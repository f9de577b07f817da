import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { buildBundle } from '../../src/pipeline/bundle.ts';

test('image variants: made once, then taken from the build cache while the image is unchanged; an edited image is encoded again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-images-'));
  try {
    await cp('sandbox', join(dir, 'content'), { recursive: true });
    const build = () => buildBundle({ contentDir: join(dir, 'content'), outDir: join(dir, 'out'), base: '', cacheDir: join(dir, 'cache') });
    const variantsDir = join(dir, 'out', 'media', '_v');
    const first = await build();
    assert.ok(first.stats.imagesEncoded > 0, 'a clean build encodes');
    assert.equal(first.stats.imagesReused, 0);
    const made = (await readdir(variantsDir)).sort();
    assert.ok(made.some((n) => n.endsWith('.avif')) && made.some((n) => n.endsWith('.webp')), made.join());
    const bytes = new Map(await Promise.all(made.map(async (n) => [n, await readFile(join(variantsDir, n))] as const)));
    for (const [name, b] of bytes) assert.equal(imageSize(b).width, Number(/-(\d+)\.\w+$/.exec(name)![1]), `${name} is as wide as its name says`);

    const second = await build();
    assert.equal(second.stats.imagesEncoded, 0, 'nothing is encoded again');
    assert.equal(second.stats.imagesReused, first.stats.imagesEncoded);
    assert.deepEqual((await readdir(variantsDir)).sort(), made);
    for (const [name, b] of bytes) assert.ok(b.equals(await readFile(join(variantsDir, name))), `${name} is byte-identical`);

    // Another image under the same name: new variants, named by the new content.
    const figure = join(dir, 'content', 'posts', 'media-sample', 'figure-1.jpg');
    await cp('content/posts/walking-the-city/figure-2.jpg', figure);
    const third = await build();
    assert.ok(third.stats.imagesEncoded > 0, 'the changed image is encoded');
    assert.notDeepEqual((await readdir(variantsDir)).sort(), made);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
