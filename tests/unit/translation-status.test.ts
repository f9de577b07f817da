import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll, stamp, status, verify, verifyRefusal } from '../../src/translate/translation-status.ts';

test('status and stamp: unstamped -> available -> stale after an English edit -> available again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-tr-'));
  try {
    await mkdir(join(dir, 'posts/p'), { recursive: true });
    await writeFile(join(dir, 'posts/p/en.md'), '---\ntitle: "Hello"\ndate: 2026-01-01\n---\n\nBody.\n');
    await writeFile(join(dir, 'posts/p/fr.md'), '---\ntitle: "Bonjour"\n---\n\nCorps.\n');
    const state = async () => status((await loadAll(dir))[0]!).states;
    assert.equal((await state()).fr, 'unstamped');
    assert.equal((await state()).de, 'missing');
    await stamp((await loadAll(dir))[0]!, 'fr');
    assert.equal((await state()).fr, 'available');
    assert.match(await readFile(join(dir, 'posts/p/fr.md'), 'utf8'), /^---\ntitle: "Bonjour"\nsource_hash: "sha256:[0-9a-f]{64}"\n---\n\nCorps\.\n$/);
    await appendFile(join(dir, 'posts/p/en.md'), '\nMore.\n');
    assert.equal((await state()).fr, 'stale');
    await stamp((await loadAll(dir))[0]!, 'fr');
    assert.equal((await state()).fr, 'available');
    assert.equal((await readFile(join(dir, 'posts/p/fr.md'), 'utf8')).match(/source_hash/g)!.length, 1, 're-stamping replaces the hash');
    await assert.rejects(stamp((await loadAll(dir))[0]!, 'de'), /no de translation/);
    await writeFile(join(dir, 'posts/p/es.md'), '---\ntitle: "Hola"\nverified: false\n---\n\nCuerpo.\n');
    assert.equal(verifyRefusal((await loadAll(dir))[0]!, 'es'), undefined, 'unstamped is not stale');
    await verify((await loadAll(dir))[0]!, 'es', { by: 'Ana "A." Ruiz', at: '2026-11-28' });
    const es = (await loadAll(dir))[0]!.translations.find((t) => t.lang === 'es')!;
    assert.deepEqual([es.verified, es.verified_by, es.verified_at], [true, 'Ana "A." Ruiz', '2026-11-28T00:00:00Z'], 'the loader reads the date as a timestamp');
    assert.equal((await readFile(join(dir, 'posts/p/es.md'), 'utf8')).match(/verified:/g)!.length, 1, 'the review replaces verified: false');
    // Stale (the English changed after the stamp): verify is refused, naming the file and the way out.
    await appendFile(join(dir, 'posts/p/en.md'), '\nEven more.\n');
    assert.match(verifyRefusal((await loadAll(dir))[0]!, 'fr')!, /fr\.md is stale .*--force verifies it anyway$/);
    // The loader checks the new fields like the others.
    await writeFile(join(dir, 'posts/p/es.md'), '---\ntitle: "Hola"\nverified_at: "last week"\n---\n\nCuerpo.\n');
    await assert.rejects(loadAll(dir), /verified_at.*must be a real date/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
