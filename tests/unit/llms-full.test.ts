import { test } from 'node:test';
import assert from 'node:assert/strict';
import { llmsFullMaxBytes, writeLlmsFull, type LlmsFullSource } from '../../src/discovery/llms-full.ts';
import { LLMS_FULL_MAX_BYTES_DEFAULT } from '../../src/core/limits.ts';

/** `n` posts newest first (post-{n-1} the newest), each a Markdown twin of about `size` bytes. */
function source(n: number, size: number): LlmsFullSource {
  const posts = Array.from({ length: n }, (_, i) => ({ slug: `post-${n - 1 - i}` }));
  return {
    catalog: { site_url: 'https://example.org', base: '', site: { name: 'Site', description: 'Essays.', attribution: 'By the author.' }, posts },
    doc: async (slug) => `---\ntitle: ${slug}\n---\n\n# ${slug}\n\n${'word '.repeat(size / 5)}`,
  };
}

async function files(src: LlmsFullSource, max: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await writeLlmsFull(src, async (path, text) => void out.set(path, text), max);
  return out;
}

const slugsIn = (text: string) => [...text.matchAll(/^# (post-\d+)$/gm)].map((m) => m[1]!);

test('posts that fit make one llms-full.txt, every post newest first, as before the bound', async () => {
  const out = await files(source(5, 1_000), 20_000);
  assert.deepEqual([...out.keys()], ['/llms-full.txt']);
  const text = out.get('/llms-full.txt')!;
  assert.ok(text.startsWith('# Site\n\n> Essays.\n\nBy the author.\n\n---\ntitle: post-4'));
  assert.deepEqual(slugsIn(text), ['post-4', 'post-3', 'post-2', 'post-1', 'post-0']);
  assert.ok(!/parts/.test(text), 'no parts named');
});

test('past the bound: the newest that fit, naming parts that hold the older ones oldest first, every file within it', async () => {
  const max = 20_000;
  const out = await files(source(60, 1_500), max);
  const head = out.get('/llms-full.txt')!;
  const parts = [...out.keys()].filter((p) => p !== '/llms-full.txt');
  assert.ok(parts.length >= 3, `${parts.length} parts`);
  assert.deepEqual(parts, parts.map((_, i) => `/llms-full/${i + 1}.txt`));
  for (const [path, text] of out) assert.ok(Buffer.byteLength(text) <= max, `${path}: ${Buffer.byteLength(text)} bytes`);
  assert.match(head, new RegExp(`in ${parts.length} parts, oldest first, each within ${max} bytes: https://example.org/llms-full/1.txt \\(the oldest\\) to https://example.org/llms-full/${parts.length}.txt\\.`));
  // Every post once: the newest in the file, newest first; the others in the parts, oldest first.
  const shown = slugsIn(head);
  assert.equal(shown[0], 'post-59');
  const older = parts.flatMap((p) => slugsIn(out.get(p)!));
  assert.deepEqual(older, Array.from({ length: 60 - shown.length }, (_, i) => `post-${i}`));
  assert.deepEqual([...older, ...shown.reverse()], Array.from({ length: 60 }, (_, i) => `post-${i}`));
  assert.match(head, new RegExp(`holds the ${shown.length} newest of 60 posts`));
  assert.match(out.get('/llms-full/1.txt')!, /^# Site: older posts, part 1\n\n> Posts oldest first; the newest are in https:\/\/example\.org\/llms-full\.txt\./);
});

test('a new post changes the file and the last part only', async () => {
  const before = await files(source(60, 1_500), 20_000);
  const after = await files(source(61, 1_500), 20_000);
  const changed = [...after.keys()].filter((p) => before.get(p) !== after.get(p));
  const part = (p: string) => Number(/\/(\d+)\.txt$/.exec(p)?.[1] ?? 0);
  const last = Math.max(...[...before.keys()].map(part));
  assert.ok(changed.includes('/llms-full.txt') && changed.every((p) => p === '/llms-full.txt' || part(p) >= last), changed.join(' '));
});

test('FOLIO_LLMS_FULL_MAX_BYTES sets the bound: a whole number from 10,000 to 20,000,000, else a clear error', () => {
  assert.equal(llmsFullMaxBytes({}), LLMS_FULL_MAX_BYTES_DEFAULT);
  assert.equal(llmsFullMaxBytes({ FOLIO_LLMS_FULL_MAX_BYTES: '50000' }), 50_000);
  for (const bad of ['0', '9999', '2.5', 'many', '20000001']) assert.throws(() => llmsFullMaxBytes({ FOLIO_LLMS_FULL_MAX_BYTES: bad }), /FOLIO_LLMS_FULL_MAX_BYTES=.*whole number/, bad);
});
