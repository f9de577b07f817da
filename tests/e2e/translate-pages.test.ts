import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import matter from 'gray-matter';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { loadAll, loadPages } from '../../src/translate/translation-status.ts';
import { runTranslate } from '../helpers/translate-command.ts';
import { get, startServer } from '../helpers/server.ts';

/**
 * Standalone pages (content/pages/<slug>/: about, colophon) are translated, listed, stamped and
 * verified like posts (issue 41); `verify` refuses a stale file unless forced and records who
 * reviewed it and when (issue 40).
 */
const apertiumSkip = isApertiumInstalled() ? false : 'Apertium not found (apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt; .ci/run installs it)';
const temps: string[] = [];
after(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

/** A copy of the demo content with only these posts (a smaller build): its term names left out, its menu the pages. */
async function contentCopy(posts: string[]): Promise<{ dir: string; root: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-translate-pages-'));
  temps.push(dir);
  const root = join(dir, 'content');
  await cp('content', root, { recursive: true });
  for (const slug of await readdir(join(root, 'posts'))) if (!posts.includes(slug)) await rm(join(root, 'posts', slug), { recursive: true });
  await rm(join(root, 'taxonomies.yaml'), { force: true });
  const site = join(root, 'site.yaml');
  // The menu's categories are those of posts left out: the pages alone stay in it.
  await writeFile(site, (await readFile(site, 'utf8')).replace(/^menu:.*$/m, 'menu: [about, colophon]'));
  return { dir, root };
}

/** A command of the project with a deadline (its process group killed at it): exit code and output. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv = process.env, deadlineMs = 120_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }, deadlineMs);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const translations = (args: string[], env?: NodeJS.ProcessEnv) => run('scripts/translations.ts', args, env);

describe('a standalone page translated with Apertium, the real offline engine', { skip: apertiumSkip }, () => {
  test('translate -- about --lang es writes pages/about/es.md, status lists it as a page, and the build publishes /es/about', async () => {
    const { dir, root } = await contentCopy(['the-slow-web']);
    const unknown = await runTranslate(root, ['nowhere', '--lang', 'es']);
    assert.equal(unknown.code, 2, unknown.out);
    assert.match(unknown.out, /^translate: no post or page "nowhere" in .*posts or .*pages$/m);

    const made = await runTranslate(root, ['about', '--lang', 'es']);
    assert.equal(made.code, 0, made.out);
    assert.match(made.out, /^about es \(apertium\): \d+ segments, 0 from memory, sent \d+ /m);
    assert.doesNotMatch(made.out, /^(the-slow-web|colophon) /m, 'only the page named');
    const file = join(root, 'pages', 'about', 'es.md');
    const es = matter(await readFile(file, 'utf8'));
    const english = matter(await readFile(join(root, 'pages', 'about', 'en.md'), 'utf8'));
    assert.match(String(es.data.provider), /^apertium:\d/);
    assert.equal(es.data.automated, true);
    assert.match(String(es.data.source_hash), /^sha256:[0-9a-f]{64}$/);
    assert.ok(es.data.summary && es.data.summary !== english.data.summary, 'the summary is translated');
    assert.equal(es.content.match(/^## /gm)?.length, english.content.match(/^## /gm)?.length, 'the headings kept');
    assert.equal((await loadPages(root)).find((p) => p.slug === 'about')!.translations.find((t) => t.lang === 'es')!.source_hash, es.data.source_hash, 'the loader takes it');

    // No slug: every page as well as every post (a dry run: nothing sent).
    const dry = await runTranslate(root, ['--lang', 'es', '--dry-run']);
    assert.equal(dry.code, 0, dry.out);
    assert.match(dry.out, /^colophon es \(apertium\): \d+ segments, 0 from memory, to send \d+ /m);
    assert.doesNotMatch(dry.out, /^about es /m, 'the page just translated is up to date');

    const table = await translations(['status', '--wide', '--root', root]);
    assert.equal(table.code, 0, table.out);
    const header = table.out.split('\n').find((l) => /^ +es +zh/.test(l))!;
    const esColumn = header.indexOf('es');
    const row = (name: string) => table.out.split('\n').find((l) => l.startsWith(name))!;
    assert.equal(row('about (page)').slice(esColumn, esColumn + 1), '✓', table.out);
    assert.equal(row('colophon (page)').slice(esColumn, esColumn + 1), '·', table.out);

    // Reviewed (the loader and the build take verified_by and verified_at), then built and served.
    const verified = await translations(['verify', 'about', 'es', '--by', 'Ana Ruiz', '--root', root]);
    assert.equal(verified.code, 0, verified.out);
    const out = join(dir, 'dist');
    // Deadline: a build of one essay and two pages takes about a minute on a loaded machine.
    const built = await run('scripts/build.ts', [], { ...process.env, FOLIO_CONTENT: root, FOLIO_OUT: out, FOLIO_CACHE: join(dir, 'cache') }, 10 * 60_000);
    assert.equal(built.code, 0, built.out);
    const server = await startServer({ FOLIO_OUT: out, RATE_LIMIT: '0' });
    try {
      const page = await get(server.url, '/es/about');
      assert.equal(page.status, 200, page.text.slice(0, 500));
      assert.match(page.text, /<html[^>]* lang="es"/);
      assert.ok(page.text.includes(String(es.data.title)), `the Spanish title "${es.data.title}" on /es/about`);
      const missing = await get(server.url, '/de/about');
      assert.notEqual(missing.status, 200, 'a language the page lacks is not published as a page of its own');
    } finally {
      await server.stop();
    }
  });
});

describe('translations verify: refuses a stale file unless forced, and records who and when', () => {
  test('stale refused in one line (nothing written); --force and --by record it; the name falls back to git user.name; none: refused', async () => {
    const { dir, root } = await contentCopy(['the-slow-web']);
    const today = new Date().toISOString().slice(0, 10);
    const fr = join(root, 'posts', 'the-slow-web', 'fr.md');
    const es = join(root, 'posts', 'the-slow-web', 'es.md');
    const states = async () => (await loadAll(root))[0]!;
    assert.ok((await states()).translations.some((t) => t.lang === 'fr'));
    const frBefore = await readFile(fr, 'utf8');
    const esBefore = await readFile(es, 'utf8');

    // The demo's French of the-slow-web is stale: refused, and the Spanish named with it is left too.
    const refused = await translations(['verify', 'the-slow-web', 'es', 'fr', '--by', 'Ana Ruiz', '--root', root]);
    assert.equal(refused.code, 1, refused.out);
    assert.equal(refused.out.trim().split('\n').length, 1, refused.out);
    assert.match(refused.out, /^translations: .*fr\.md is stale \(its source_hash is not the current English's\): .*--force verifies it anyway$/m);
    assert.equal(await readFile(fr, 'utf8'), frBefore);
    assert.equal(await readFile(es, 'utf8'), esBefore);

    const forced = await translations(['verify', 'the-slow-web', 'fr', '--force', '--by', 'Ana Ruiz', '--root', root]);
    assert.equal(forced.code, 0, forced.out);
    const front = matter(await readFile(fr, 'utf8')).data;
    assert.equal(front.verified, true);
    assert.equal(front.verified_by, 'Ana Ruiz');
    assert.equal(front.verified_at, today);
    const loaded = (await states()).translations.find((t) => t.lang === 'fr')!;
    assert.equal(loaded.verified_by, 'Ana Ruiz');
    assert.equal(loaded.verified_at, `${today}T00:00:00Z`);

    // No --by: the name git knows (a global config of the test's own).
    const gitconfig = join(dir, 'gitconfig');
    await writeFile(gitconfig, '[user]\n\tname = Rev Iewer\n');
    const byGit = await translations(['verify', 'about', 'fr', '--root', root], { ...process.env, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1' });
    assert.equal(byGit.code, 0, byGit.out);
    assert.equal(matter(await readFile(join(root, 'pages', 'about', 'fr.md'), 'utf8')).data.verified_by, 'Rev Iewer');
    // Verified again: each field once, replaced.
    const again = await translations(['verify', 'about', 'fr', '--by', 'Ana Ruiz', '--root', root]);
    assert.equal(again.code, 0, again.out);
    const text = await readFile(join(root, 'pages', 'about', 'fr.md'), 'utf8');
    assert.equal(text.match(/^verified_by:/gm)!.length, 1);
    assert.equal(matter(text).data.verified_by, 'Ana Ruiz');

    const nobody = await translations(['verify', 'about', 'ja', '--root', root], { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });
    assert.equal(nobody.code, 2, nobody.out);
    assert.match(nobody.out, /^translations: who reviewed it\? name the reviewer with --by NAME \(or set git config user\.name\)$/m);
  });
});
