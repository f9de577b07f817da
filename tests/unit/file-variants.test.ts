import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { variantWriter } from '../../src/pipeline/publish/file-variants.ts';
import type { FileFacts } from '../../src/pipeline/publish/file-variants.ts';

test('same bytes are linked while the writer remembers them (the `recent` most recent, RECENT in a build), and written again past that, with the same facts', async () => {
  const RECENT = 8;
  const dir = mkdtempSync(join(tmpdir(), 'variants-'));
  try {
    const facts = new Map<string, FileFacts>();
    const writer = variantWriter(dir, undefined, { codingThreads: 1, recent: RECENT, sink: (file, f) => void facts.set(file, f) });
    await writer.add('/first.txt', 'the same bytes', false);
    await writer.add('/near.txt', 'the same bytes', false);
    // RECENT other bytes, in as many folders: the first bytes (and the first folder) are forgotten.
    for (let i = 0; i < RECENT; i++) await writer.add(`/d${i}/f.txt`, `other bytes ${i}`, false);
    await writer.add('/far.txt', 'the same bytes', false);
    await writer.add(`/d${RECENT - 1}/again.txt`, `other bytes ${RECENT - 1}`, false);
    await writer.flush();
    const inode = (f: string) => statSync(join(dir, f)).ino;
    assert.equal(inode('/near.txt'), inode('/first.txt'), 'near: linked');
    assert.notEqual(inode('/far.txt'), inode('/first.txt'), 'far: written again');
    assert.equal(inode(`/d${RECENT - 1}/again.txt`), inode(`/d${RECENT - 1}/f.txt`), 'recent bytes: linked');
    assert.equal(readFileSync(join(dir, 'far.txt'), 'utf8'), 'the same bytes');
    assert.deepEqual(facts.get('/far.txt'), facts.get('/first.txt'));
    assert.equal(writer.facts.size, 0, 'with a sink, the writer keeps no facts');
    assert.equal(facts.size, RECENT + 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
