import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextSpill } from '../../src/pipeline/index/text-spill.ts';
import { bundleContent } from '../../src/pipeline/bundle.ts';
import { ContentErrors } from '../../src/pipeline/load/file-error.ts';

test('the search texts spilled to disk read back as written, in any order, and the file goes at close', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spill-'));
  try {
    const spill = new TextSpill(join(dir, 'texts.spill'));
    const texts: [string, string][] = [
      ['a\0en', 'The slow web, «quoted».'],
      ['a\0ja', '遅いウェブについて。'],
      ['b\0ar', 'الويب البطيء'],
      ['b\0en', ''],
      ['c\0hi', 'धीमा वेब '.repeat(5000)],
    ];
    for (const [key, text] of texts) spill.put(key, text);
    for (const [key, text] of [...texts].reverse()) assert.equal(spill.get(key), text);
    assert.equal(spill.get('a\0fr'), undefined);
    spill.close();
    assert.equal(existsSync(join(dir, 'texts.spill')), false);
    spill.close(); // again: nothing (a failed step may close what its indexing closed)
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bundle that fails with an exception (no content error: here its reader bodies cannot be written) leaves no spilled texts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spill-'));
  try {
    const content = join(dir, 'content');
    mkdirSync(join(content, 'posts', 'hello'), { recursive: true });
    writeFileSync(join(content, 'site.yaml'), 'name: S\ndescription: D\nauthor: A\nattribution: cite\nproduct:\n  title: P\n  description: d\n  format: PDF\n  price_usd: 1\n  currency: USD\n  landing_url: /p\n  download_url: /d\n');
    writeFileSync(join(content, 'posts', 'hello', 'en.md'), '---\ntitle: "Hello"\ndate: 2026-01-01T00:00:00Z\ncategories: [Tech]\n---\n\nBody text.\n');
    // A file where the reader bodies' folder should be: making it fails (ENOTDIR) once the spill is open.
    writeFileSync(join(dir, 'not-a-folder'), '');
    const outDir = join(dir, 'out');
    await assert.rejects(bundleContent({ contentDir: content, outDir, base: '', cacheDir: join(dir, 'cache'), readerDir: join(dir, 'not-a-folder', 'reader') }), (e: Error) => !(e instanceof ContentErrors) && /ENOTDIR|not a directory/.test(e.message));
    assert.equal(existsSync(`${outDir}.texts.spill`), false, 'the spilled texts are removed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
