import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, readlink, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm run build` with a broken link or a missing image: it exits 1 with one line per reference
 * (file:line), publishes nothing and leaves the live build as it was, also when the linking post is
 * unchanged and taken from the live build (the post it links to was removed).
 */
let dir: string;
let out: string;
let content: string;

function build(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.ts'], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: out, FOLIO_CACHE: join(dir, 'cache') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** The live build: where `current` points, its manifest's bytes, the build folders. */
async function live() {
  return { link: await readlink(join(out, 'current')), manifest: await readFile(join(out, 'current', 'manifest.json')), builds: (await readdir(join(out, 'builds'))).sort() };
}

const post = (slug: string) => join(content, 'posts', slug, 'en.md');
const linesOf = async (slug: string) => (await readFile(post(slug), 'utf8')).split('\n').length;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-link-check-'));
  out = join(dir, 'dist');
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  // The demo's posts link to each other's pages, headings and media as an author would.
  const slowWeb = await readFile(post('the-slow-web'), 'utf8');
  await writeFile(post('the-slow-web'), `${slowWeb}\nSee also [bread](/bread-and-time), [its twin](/fr/bread-and-time.md), [its cover](/media/bread-and-time/cover.jpg) and [the tides](/tidal-energy).\n`);
  const first = await build();
  assert.equal(first.code, 0, first.output);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a broken link and a missing image fail the build, one line each, and leave the live build as it was', async () => {
  const before = await live();
  const good = await readFile(post('bread-and-time'), 'utf8');
  await writeFile(post('bread-and-time'), `${good}\nRead [the next essay](/no-such-post).\n\n![A loaf](loaf.jpg)\n`);
  const lines = await linesOf('bread-and-time');
  const failed = await build();
  await writeFile(post('bread-and-time'), good);
  assert.equal(failed.code, 1, failed.output);
  assert.match(failed.output, new RegExp(`bread-and-time[/\\\\]en\\.md:${lines - 3}: link: /no-such-post is no page or file of this site\\n`));
  assert.match(failed.output, new RegExp(`bread-and-time[/\\\\]en\\.md:${lines - 1}: image: loaf\\.jpg is not a file in the post folder, e\\.g\\. `));
  assert.match(failed.output, /^2 content errors$/m);
  assert.doesNotMatch(failed.output, /\n\s+at /, 'no stack trace');
  assert.match(failed.output, /live build is unchanged/);
  assert.deepEqual(await live(), before);
});

test('removing a post that an unchanged post links to fails the build on the link (the linking post taken from the live build)', async () => {
  const before = await live();
  const away = join(dir, 'bread-and-time');
  await rename(join(content, 'posts', 'bread-and-time'), away);
  const failed = await build();
  await rename(away, join(content, 'posts', 'bread-and-time'));
  assert.equal(failed.code, 1, failed.output);
  const lines = await linesOf('the-slow-web');
  assert.match(failed.output, new RegExp(`the-slow-web[/\\\\]en\\.md:${lines - 1}: link: /bread-and-time is no page or file of this site\\n`));
  assert.match(failed.output, new RegExp(`the-slow-web[/\\\\]en\\.md:${lines - 1}: link: /fr/bread-and-time\\.md is no page or file of this site\\n`));
  assert.match(failed.output, new RegExp(`the-slow-web[/\\\\]en\\.md:${lines - 1}: link: /media/bread-and-time/cover\\.jpg is no page or file of this site\\n`));
  assert.match(failed.output, /^3 content errors$/m);
  assert.deepEqual(await live(), before);
});
