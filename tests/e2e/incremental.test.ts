import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { clientFiles } from '../../src/artefact/client-files.ts';
import { assertSameOutput, files, live } from '../helpers/same-output.ts';
import { filesUnder } from '../../src/fs/files-under.ts';
import { indexCatalog } from '../../src/core/catalog-index.ts';
import { readNext } from '../../src/core/read-next.ts';
import type { Catalog, PostRecord } from '../../src/core/types.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskCatalog } from '../../src/bundle/load-bundle.ts';

/**
 * An incremental build (posts unchanged since the live build are linked from it) publishes exactly
 * what a clean build of the same content publishes: every file byte for byte, and the manifest.
 */
let dir: string;
let content: string;

function build(out: string, cache: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/build.ts', '--timings', ...args], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: out, FOLIO_CACHE: cache }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`build exited ${code}\n${output}`))));
  });
}

/** What each post of the live build's site offers to read next, in every language it is available in, by slug. */
async function readNextShown(out: string): Promise<Map<string, string>> {
  const index = indexCatalog((await diskCatalog((await live(out)).layout.bundle('main')))!);
  const availableIn = (p: PostRecord) => index.available.get(p)!;
  return new Map(index.catalog.posts.map((p) => [p.slug, JSON.stringify(availableIn(p).map((lang) => {
    const { previous, next, related } = readNext(index.catalog.posts, availableIn, p.slug, lang);
    return [previous, next, ...related].map((q) => q && [q.slug, q.entries[lang]!.title]);
  }))]));
}

const postCount = async () => (await readdir(join(content, 'posts'))).length;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-incremental-'));
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  await build(join(dir, 'live'), join(dir, 'cache'));
});

after(() => rm(dir, { recursive: true, force: true }));

describe('incremental builds', () => {
  test('a body edit and another post\'s new title: only those posts and the posts whose read-next links change are made again, and the output equals a clean build\'s', async () => {
    const [edited, retitled] = (await readdir(join(content, 'posts'))).sort();
    const en = join(content, 'posts', edited!, 'en.md');
    await writeFile(en, `${await readFile(en, 'utf8')}\nOne more sentence, edited.\n`);
    const other = join(content, 'posts', retitled!, 'en.md');
    await writeFile(other, (await readFile(other, 'utf8')).replace(/^title: .*$/m, 'title: "A title changed by the test"'));
    const readNextBefore = await readNextShown(join(dir, 'live'));
    const incremental = await build(join(dir, 'live'), join(dir, 'cache'), '--target', 'static');
    // The site's posts but the two and those whose pages offer other posts to read next now (the retitled
    // one's translations are stale: it leaves their languages), and the sandbox's (untouched).
    const readNextAfter = await readNextShown(join(dir, 'live'));
    const offerOthers = [...readNextAfter].filter(([slug, shown]) => ![edited, retitled].includes(slug) && readNextBefore.get(slug) !== shown);
    assert.ok(offerOthers.length > 0, 'some posts offer other posts to read next');
    const sandbox = (await readdir('sandbox/posts')).length;
    assert.match(incremental, new RegExp(`incremental: ${(await postCount()) - 2 - offerOthers.length + sandbox} unchanged posts taken from build`));
    assert.match(incremental, /incremental: [1-9]\d* list pages taken from the live build/, 'the lists that show neither post are taken');
    assert.match(incremental, /^publish: unchanged posts' answers taken from the live build .*beside pages \(Astro\)/m, 'the unchanged posts\' answers are taken beside Astro');
    assert.match(incremental, /^publish: API answers and discovery .*beside pages \(Astro\)/m, 'the answers are made beside Astro');
    assert.match(incremental, /^content -> search indexes .*beside pages \(Astro\)/m, 'the search indexes are written beside Astro');
    assert.match(incremental, /^publish: unchanged posts' pages and list pages taken from the live build /m);
    assert.match(incremental, new RegExp(`bundle main: ${await postCount()} posts \\(${(await postCount()) - 2} taken from the live build\\)`), 'the unchanged posts\' entries are taken whole, not loaded and rendered');
    assert.match(incremental, /bundle main: .*search indexes: ([1-9]|1[0-3]) of 14 taken from the live build \(([1-9]|1[0-3]) updated from it\)/, 'the languages whose posts did not change keep their index, the others are updated from it');
    // What did not change stays where the live build holds it: the new build's folder holds only what it made.
    const { layout, manifest } = await live(join(dir, 'live'));
    const before = (await readdir(join(dir, 'live', 'builds'))).filter((id) => id !== manifest.build);
    assert.equal(manifest.holders.length, 1, 'one earlier build holds the unchanged files');
    assert.ok(before.includes(manifest.holders[0]!));
    const own = filesUnder(layout.client).length;
    const all = clientFiles(layout, manifest).length;
    assert.ok(own < all / 2, `the build's own folder holds ${own} of the artefact's ${all} files`);
    await build(join(dir, 'clean'), join(dir, 'clean-cache'), '--target', 'static');
    await assertSameOutput(join(dir, 'live'), join(dir, 'clean'));
    // A host target gathers the whole artefact into its folder, wherever the files are held.
    const [incrementalStatic, cleanStatic] = await Promise.all([files(join(dir, 'live', 'static')), files(join(dir, 'clean', 'static'))]);
    assert.deepEqual([...incrementalStatic.keys()].sort(), [...cleanStatic.keys()].sort(), 'the same files in --target static');
    assert.deepEqual([...incrementalStatic].filter(([name, bytes]) => !bytes.equals(cleanStatic.get(name)!)).map(([name]) => name), [], 'byte-identical files in --target static');
  });

  test('a post dated anew moves between list pages: every list that shows it is made again, the rest taken, and the output equals a clean build\'s', async () => {
    const dated = async (slug: string) => Date.parse(/^date: (.*)$/m.exec(await readFile(join(content, 'posts', slug, 'en.md'), 'utf8'))![1]!);
    const slugs = await readdir(join(content, 'posts'));
    const dates = await Promise.all(slugs.map(dated));
    // The oldest post (the last of the English home's last page) becomes the newest (the first of its first).
    const oldest = slugs[dates.indexOf(Math.min(...dates))]!;
    const en = join(content, 'posts', oldest, 'en.md');
    await writeFile(en, (await readFile(en, 'utf8')).replace(/^date: .*$/m, `date: ${new Date(Math.max(...dates) + 86_400_000).toISOString()}`));
    assert.ok((await postCount()) > 10, 'more posts than a list page holds');
    const incremental = await build(join(dir, 'live'), join(dir, 'cache'));
    assert.match(incremental, /incremental: [1-9]\d* list pages taken from the live build/, 'the lists that do not show the post are linked');
    await rm(join(dir, 'clean'), { recursive: true, force: true });
    await build(join(dir, 'clean'), join(dir, 'clean-cache'));
    await assertSameOutput(join(dir, 'live'), join(dir, 'clean'));
  });

  test('a change to the site settings makes every page again (nothing is taken), and still equals a clean build', async () => {
    const site = join(content, 'site.yaml');
    await writeFile(site, (await readFile(site, 'utf8')).replace(/^description: .*$/m, 'description: "Described again by the test"'));
    const full = await build(join(dir, 'live'), join(dir, 'cache'));
    assert.match(full, new RegExp(`incremental: ${(await readdir('sandbox/posts')).length} unchanged posts`), 'only the sandbox, whose scope is unchanged');
    await rm(join(dir, 'clean'), { recursive: true, force: true });
    await build(join(dir, 'clean'), join(dir, 'clean-cache'));
    await assertSameOutput(join(dir, 'live'), join(dir, 'clean'));
  });

  test('a translation edited alone, a media file given other bytes and a new post: those posts are bundled (the indexes built anew: ids moved), and the output equals a clean build\'s', async () => {
    const posts = join(content, 'posts');
    const translated = (await readdir(posts)).sort().find((slug) => slug !== 'walking-the-city')!;
    const translation = (await readdir(join(posts, translated))).find((name) => name.endsWith('.md') && name !== 'en.md')!;
    const file = join(posts, translated, translation);
    await writeFile(file, `${await readFile(file, 'utf8')}\nOne more sentence, in the translation only.\n`);
    // The same name, other bytes (another post's picture): its media file, measures and variants change.
    await writeFile(join(posts, 'walking-the-city', 'figure-2.jpg'), await readFile(join(posts, 'bread-and-time', 'cover.jpg')));
    // A new post moves others in the catalog (their ids in the search indexes): nothing is updated in place.
    await cp(join(posts, 'bread-and-time'), join(posts, 'bread-and-time-again'), { recursive: true });
    const incremental = await build(join(dir, 'live'), join(dir, 'cache'));
    assert.match(incremental, new RegExp(`bundle main: ${await postCount()} posts \\(${(await postCount()) - 3} taken from the live build\\)`));
    assert.match(incremental, /bundle main: .*search indexes: \d+ of 14 taken from the live build \(0 updated from it\)/);
    await rm(join(dir, 'clean'), { recursive: true, force: true });
    await build(join(dir, 'clean'), join(dir, 'clean-cache'));
    await assertSameOutput(join(dir, 'live'), join(dir, 'clean'));
    // Four builds on, the builds that hold files of the live one are all still there.
    const { manifest } = await live(join(dir, 'live'));
    const first = (await readdir(join(dir, 'live', 'builds'))).sort()[0]!;
    assert.ok(manifest.holders.includes(first), 'the first build holds the sandbox\'s files, unchanged since, though it is older than the builds kept for themselves');
    for (const holder of manifest.holders) assert.ok(existsSync(join(dir, 'live', 'builds', holder, 'site', 'client')), `${holder} holds files of the live build`);
  });
});
