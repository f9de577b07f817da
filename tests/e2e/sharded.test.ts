import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { slugOf, writeCorpus } from '../../bench/synthetic-corpus.ts';
import { shardOf } from '../../src/pipeline/reuse/shard-inputs.ts';
import { assertSameOutput } from '../helpers/same-output.ts';

/**
 * A sharded build (src/pipeline/reuse/shard-*.ts): three shards, each its slice of the posts, merged, publish
 * exactly what a one-machine build of the same content publishes; after an edit, the shards whose
 * posts did not change are taken from the cache; shards from other content or settings are refused.
 */
let dir: string;
let content: string;
const POSTS = 24;
const STALE = slugOf(11);
/** A build on this loaded machine (2 cores, other builds beside it) takes well under a minute at this size. */
const DEADLINE_MS = 10 * 60_000;

/** `scripts/build.ts` with these arguments (FOLIO_OUT `out`, FOLIO_CACHE `cache`): its exit code and output; killed with its processes at the deadline. */
function run(out: string, cache: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.ts', ...args], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: out, FOLIO_CACHE: cache, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Whatever the build left running (a step it spawned) ends with it.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
      resolve({ code, output });
    });
  });
}

async function build(out: string, cache: string, ...args: string[]): Promise<string> {
  const { code, output } = await run(out, cache, args);
  assert.equal(code, 0, `build ${args.join(' ')} exited ${code}\n${output}`);
  return output;
}

const shardDirs = (n: number) => Array.from({ length: n }, (_, i) => join(dir, 'shards', `${i + 1}`));
const liveId = async (out: string) => realpath(join(out, 'current'));

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-sharded-'));
  content = join(dir, 'content');
  await writeCorpus(content, POSTS, 'content/posts/tidal-energy/figure-1.jpg');
  // One post's English changed under its translations: they are stale, so it cannot be read next in
  // their languages, which the other shards tell from its front matter alone (they outline it).
  const en = join(content, 'posts', STALE, 'en.md');
  await writeFile(en, `${await readFile(en, 'utf8')}\nA sentence its translations lack.\n`);
});

after(() => rm(dir, { recursive: true, force: true }));

describe('sharded builds', () => {
  test('three shards merged publish what a one-machine build (its pages rendered in slices) publishes, file for file and byte for byte', async () => {
    const cache = join(dir, 'cache');
    for (const [i, out] of shardDirs(3).entries()) {
      const made = await build(join(dir, 'sharded'), cache, '--shard', `${i + 1}/3`, '--out', out);
      assert.match(made, new RegExp(`^shard ${i + 1}/3: built \\(\\d+ posts\\)`, 'm'));
      // A shard renders its own posts only (14 entries each) and outlines the others from their front matter.
      const own = Array.from({ length: POSTS }, (_, p) => slugOf(p)).filter((s) => shardOf('main', s, 3) === i + 1).length;
      const bundled = /^bundle main: (\d+) posts \(0 taken from the live build, (\d+) outlined for another shard\), (\d+) entries/m.exec(made);
      assert.ok(bundled, made);
      assert.deepEqual(bundled.slice(1).map(Number), [POSTS, POSTS - own, own * 14]);
      // Its posts' search texts go to the merge, which indexes every post.
      assert.match(made, /^bundle main: .*search indexes: its posts' texts for the merge$/m);
    }
    const merged = await build(join(dir, 'sharded'), cache, '--merge', ...shardDirs(3));
    // Every post's pages and answers come from its shard (24 posts and the sandbox's): what each shard
    // knew of the others' posts (outlined) showed on its pages as the merge, which knows them all, shows it.
    const posts = [...merged.matchAll(/^bundle \w+: (\d+) posts \((\d+) taken from the shards\)/gm)];
    assert.equal(posts.length, 2, merged);
    for (const [, all, taken] of posts) assert.equal(taken, all, 'every post\'s entry is taken from its shard');
    assert.match(merged, /^merge: (\d+) posts' pages and answers taken from the shards$/m);
    assert.equal(Number(/^merge: (\d+) posts'/m.exec(merged)![1]), posts.reduce((n, [, all]) => n + Number(all), 0), 'every post\'s pages are taken from its shard');
    assert.match(merged, /^bundle main: .*search indexes: 0 of 14 taken from the live build \(0 updated from it\)/m, 'the merge indexes every post');
    // The one-machine build renders its pages in processes of 250 pages each (src/site/page-slice.ts), one after the other.
    const { code, output } = await run(join(dir, 'clean'), join(dir, 'clean-cache'), [], { FOLIO_PAGES_SLICE: '250' });
    assert.equal(code, 0, output);
    const slices = [...output.matchAll(/^pages: slice (\d+) of (\d+) in [\d.]+ s, peak rss \d+ MB$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
    assert.ok(slices.length >= 2, output);
    assert.deepEqual(slices, slices.map((_, i) => [i + 1, slices.length]), output);
    await assertSameOutput(join(dir, 'sharded'), join(dir, 'clean'));
  });

  test('shards from other content or settings, or not all of them, are refused in one line, and nothing is published', async () => {
    const out = join(dir, 'sharded');
    const cache = join(dir, 'cache');
    const before = await liveId(out);
    const refused = async (args: string[], env: Record<string, string>, pattern: RegExp) => {
      const { code, output } = await run(out, cache, args, env);
      assert.equal(code, 1, output);
      assert.equal(output.trim().split('\n').length, 1, output);
      assert.match(output.trim(), pattern);
    };
    const [one, two, three] = shardDirs(3);
    await refused(['--merge', one!, two!], {}, /^merge refused: shard 3\/3 missing: give all 3$/);
    await refused(['--merge', one!, two!, three!], { SITE_URL: 'https://essays.example' }, /^merge refused: shard 1\/3 \(.*\) was built with SITE_URL="", this merge has SITE_URL="https:\/\/essays\.example"$/);
    await refused(['--merge', one!, two!, join(dir, 'content')], {}, /^merge refused: .*content is not a finished shard/);
    // A post edited after its shard was built: the shard that holds it is named, with the post.
    const slug = Array.from({ length: POSTS }, (_, i) => slugOf(i)).find((s) => shardOf('main', s, 3) === 2)!;
    const en = join(content, 'posts', slug, 'en.md');
    const text = await readFile(en, 'utf8');
    await writeFile(en, `${text}\nEdited after the shards.\n`);
    try {
      await refused(['--merge', one!, two!, three!], {}, new RegExp(`^merge refused: shard 2/3 \\(.*\\) was built from another main post ${slug} than this merge's \\(edited since\\)$`));
    } finally {
      await writeFile(en, text);
    }
    assert.equal(await liveId(out), before, 'the live build is unchanged');
  });

  test('after one edit the runner builds only the shard that holds the post, takes the others from the cache, and the merge equals a one-machine build', async () => {
    const en = join(content, 'posts', 'essay-00005', 'en.md');
    // A new title shows on the pages of the posts that offer it to read next, which may be in other shards.
    await writeFile(en, `${(await readFile(en, 'utf8')).replace(/^title: "(.*)"$/m, 'title: "Retitled $1"')}\nOne more sentence.\n`);
    const output = await build(join(dir, 'sharded'), join(dir, 'cache'), '--shards', '3');
    assert.equal([...output.matchAll(/^\[shard \d\/3\] shard \d\/3: built /gm)].length, 1, output);
    assert.equal([...output.matchAll(/^\[shard \d\/3\] shard \d\/3: reused /gm)].length, 2, output);
    assert.match(output, /^merge: \d+ posts' pages and answers taken from the shards$/m);
    await rm(join(dir, 'clean'), { recursive: true, force: true });
    await build(join(dir, 'clean'), join(dir, 'clean-cache'));
    await assertSameOutput(join(dir, 'sharded'), join(dir, 'clean'));
  });
});
