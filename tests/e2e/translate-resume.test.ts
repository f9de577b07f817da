import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import matter from 'gray-matter';
import { MEMORY_FILE } from '../../src/translate/memory.ts';
import { documentText, segmentDocument } from '../../src/translate/segments.ts';

/**
 * A run killed with kill -9 resumes without sending again what it had: the memory is saved after
 * every batch. Apertium is slowed by a wrapper (0.3 s before each call) so the run can be killed
 * between two posts; the wrapper also counts the segments each call is given.
 */
const skip = isApertiumInstalled() ? false : 'Apertium not found (apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt; .ci/run installs it)';
const POSTS = ['bread-and-time', 'small-tools', 'the-slow-web', 'tidal-energy'];

let dir: string;

/** A copy of the demo with only these posts and no Spanish, translated into Spanish by Apertium. */
async function contentCopy(name: string): Promise<string> {
  const root = join(dir, name);
  await cp('content', root, { recursive: true });
  // Standalone pages are translated too (tests/e2e/translate-pages.test.ts): left out, so the counts are the posts'.
  await rm(join(root, 'pages'), { recursive: true });
  for (const slug of await readdir(join(root, 'posts'))) {
    if (!POSTS.includes(slug)) await rm(join(root, 'posts', slug), { recursive: true });
    else await rm(join(root, 'posts', slug, 'es.md'), { force: true });
  }
  return root;
}

function translate(root: string, env: Record<string, string> = {}): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; out: string }> } {
  const child = spawn(process.execPath, ['scripts/translate.ts', '--root', root, '--lang', 'es'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return { child, done: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out }))) };
}

const summary = (out: string) => {
  const m = /(\d+) translations written; (\d+) segments sent, (\d+) from memory/.exec(out);
  assert.ok(m, out);
  return { written: Number(m[1]), sent: Number(m[2]), fromMemory: Number(m[3]) };
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-translate-resume-'));
});
after(() => rm(dir, { recursive: true, force: true }));

test('kill -9 after the first post: the next run sends only what the memory lacks, and ends as an uninterrupted run', { skip }, async () => {
  const calls = join(dir, 'calls.log');
  const wrapper = join(dir, 'slow-apertium');
  await writeFile(wrapper, `#!/bin/sh\nfor last; do :; done\necho "$(grep -o 'class="folio-segment"' "$last" | wc -l)" >> '${calls}'\nsleep 0.3\nexec apertium "$@"\n`);
  await chmod(wrapper, 0o755);
  const slow = { APERTIUM_BIN: wrapper };
  const sentByWrapper = async () => (existsSync(calls) ? (await readFile(calls, 'utf8')).trim().split('\n').reduce((n, l) => n + Number(l), 0) : 0);

  const root = await contentCopy('killed');
  const memories = POSTS.map((slug) => join(root, 'posts', slug, MEMORY_FILE));
  // The Spanish segments a memory holds (it is saved earlier too: translations made outside Folio are taken into it).
  const spanishIn = (f: string) => {
    const data = JSON.parse(existsSync(f) ? readFileSync(f, 'utf8') : '{"segments":{}}') as { segments: Record<string, Record<string, { machine?: object }>> };
    return Object.values(data.segments).filter((byLang) => byLang.es?.machine).length;
  };
  const first = translate(root, slow);
  await new Promise<void>((resolve) => {
    const watch = setInterval(() => {
      if (!memories.some((f) => spanishIn(f) > 0)) return;
      clearInterval(watch);
      first.child.kill('SIGKILL');
      resolve();
    }, 10);
  });
  const killed = await first.done;
  assert.equal(killed.signal, 'SIGKILL', killed.out);
  // What the memory holds after the kill: the Spanish of the segments of each post it saved.
  assert.ok(memories.some((f) => spanishIn(f) > 0), 'the first post was saved before the kill');
  // A post whose file was written before the kill is done; one whose segments are only in the memory is not.
  const segmentsOf = async (slug: string) => {
    const { data, content } = matter(await readFile(join(root, 'posts', slug, 'en.md'), 'utf8'));
    return segmentDocument(documentText(data, content)).segments.length;
  };
  let total = 0;
  let done = 0;
  for (const slug of POSTS) {
    const n = await segmentsOf(slug);
    total += n;
    if (existsSync(join(root, 'posts', slug, 'es.md'))) done += n;
  }
  await rm(calls, { force: true });

  const resumed = await translate(root, slow).done;
  assert.equal(resumed.code, 0, resumed.out);
  const second = summary(resumed.out);
  assert.equal(second.sent, total - done - second.fromMemory, `exactly what neither a written file nor the memory holds is sent: ${resumed.out}`);
  assert.ok(second.sent < total, `fewer than the whole (${second.sent} of ${total})`);
  assert.equal(await sentByWrapper(), second.sent, 'what the command says it sent is what the engine was given');
  assert.equal(POSTS.filter((slug) => existsSync(join(root, 'posts', slug, 'es.md'))).length, POSTS.length, resumed.out);

  // The same posts translated without a kill: the same files, the same memory.
  const whole = await contentCopy('whole');
  const uninterrupted = await translate(whole).done;
  assert.equal(uninterrupted.code, 0, uninterrupted.out);
  assert.equal(summary(uninterrupted.out).fromMemory, 0);
  for (const slug of POSTS) {
    assert.equal(await readFile(join(root, 'posts', slug, 'es.md'), 'utf8'), await readFile(join(whole, 'posts', slug, 'es.md'), 'utf8'), slug);
    assert.deepEqual(JSON.parse(await readFile(join(root, 'posts', slug, MEMORY_FILE), 'utf8')), JSON.parse(await readFile(join(whole, 'posts', slug, MEMORY_FILE), 'utf8')), `${slug}: memory`);
  }
});
