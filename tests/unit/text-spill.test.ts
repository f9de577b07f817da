import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextSpill } from '../../src/pipeline/index/text-spill.ts';

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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
