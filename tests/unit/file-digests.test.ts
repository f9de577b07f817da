import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileDigests } from '../../src/pipeline/reuse/file-digests.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('file digests: the bytes\' SHA-256; a file whose stat is unchanged since well before the save is not read again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-digests-'));
  try {
    const [old, recent] = [join(dir, 'old.md'), join(dir, 'recent.md')];
    await writeFile(old, 'old bytes');
    await writeFile(recent, 'new bytes');
    const first = fileDigests(join(dir, 'cache'));
    assert.equal(first.of(old), sha('old bytes'));
    assert.equal(first.of(recent), sha('new bytes'));
    first.save();
    // The saved entries, given a digest no bytes have: a stat-matched entry is taken as it is, unless the file
    // changed within two seconds of the save (its stat might not show a second change in the same tick).
    const file = join(dir, 'cache', 'file-digests.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { saved: number; files: Record<string, [string, string]> };
    for (const path of Object.keys(saved.files)) saved.files[path]![1] = 'from the cache';
    await writeFile(file, JSON.stringify(saved));
    assert.equal(fileDigests(join(dir, 'cache')).of(recent), sha('new bytes'), 'a file changed just before the save is read again');
    await writeFile(file, JSON.stringify({ ...saved, saved: Date.now() + 60_000 }));
    assert.equal(fileDigests(join(dir, 'cache')).of(recent), 'from the cache', 'the same file, saved well after its change, is not read');
    // Same size and modification time, other bytes (an edit within the clock's tick): the change time tells.
    const { mtime } = await stat(old);
    await writeFile(old, 'OLD BYTES');
    await utimes(old, mtime, mtime);
    assert.equal(fileDigests(join(dir, 'cache')).of(old), sha('OLD BYTES'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
