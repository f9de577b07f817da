import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answersLog, readAnswersLog } from '../../src/pipeline/publish/answers-log.ts';
import type { PublishedAnswer } from '../../src/pipeline/publish/publisher.ts';
import type { FileFacts } from '../../src/pipeline/publish/file-variants.ts';

const answer = (i: number): PublishedAnswer => ({
  path: `/api/posts/p${i}`,
  query: i % 2 ? 'lang=fr' : '',
  shape: 'content',
  file: `/api/posts/p${i}/index.json`,
  type: 'application/json; charset=utf-8',
  cacheControl: 'public, max-age=60',
  ...(i % 3 ? {} : { headers: { link: '<x>; rel="y"\n«ü»' } }),
});

test('the answers log reads back every answer in order and every file\'s facts, written in bounded buffers as they come', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'answers-log-'));
  try {
    const file = join(dir, 'log.ndjson');
    const log = answersLog(file);
    const answers = Array.from({ length: 3000 }, (_, i) => answer(i));
    const facts = Array.from({ length: 3000 }, (_, i): [string, FileFacts] => [`/p${i}/index.html`, { etag: `"${i}"`, length: i, ...(i % 2 ? { br: i / 2 } : {}), ...(i % 5 ? {} : { holder: 'b1' }) }]);
    let sizeAfterHalf = 0;
    answers.forEach((a, i) => {
      log.answer(a);
      log.facts(...facts[i]!);
      if (i === 1500) sizeAfterHalf = statSync(file).size;
    });
    // Written as it goes, a buffer at a time (64 K characters), not once at the end.
    assert.ok(sizeAfterHalf > 100_000, `half the lines are on disk before the log is closed (${sizeAfterHalf} bytes)`);
    log.close([['publish: API answers and discovery', 12.5]]);
    const read: [string, FileFacts][] = [];
    const back = await readAnswersLog(file, (name, f) => read.push([name, f]));
    assert.deepEqual(back.answers, answers);
    assert.deepEqual(read, facts);
    assert.deepEqual(back.phases, [['publish: API answers and discovery', 12.5]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a log the answers step did not finish (no phases line) is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'answers-log-'));
  try {
    const file = join(dir, 'log.ndjson');
    writeFileSync(file, `${JSON.stringify({ answer: answer(1) })}\n`);
    await assert.rejects(readAnswersLog(file, () => undefined), /did not finish/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
