import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { diskBundle, PACKED } from '../../src/bundle/load-bundle.ts';

test('a bundle file is read as it is, or from its brotli-compressed copy (a serverless function ships those), or is absent', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-packed-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'plain.json'), '{"a":1}');
  await writeFile(join(dir, `packed.json${PACKED}`), brotliCompressSync(Buffer.from('{"b":2}')));
  await writeFile(join(dir, `broken.json${PACKED}`), 'not brotli');
  const bundle = diskBundle(dir);
  const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString());
  for (const read of [(n: string) => bundle.read(n), (n: string) => Promise.resolve(bundle.readSync!(n))]) {
    assert.equal(text(await read('plain.json')), '{"a":1}');
    assert.equal(text(await read('packed.json')), '{"b":2}');
    assert.equal(await read('absent.json'), undefined);
    // A damaged copy is an error, not a missing file.
    await assert.rejects(async () => read('broken.json'));
  }
});
