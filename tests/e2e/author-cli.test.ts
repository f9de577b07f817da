import { after, before, describe, test } from 'node:test';
import { withoutMenu } from '../helpers/corpus.ts';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildBundle } from '../../src/pipeline/bundle.ts';
import { defaultSiteUrl, siteUrlOf } from '../../src/pipeline/site-url.ts';

const run = promisify(execFile);

/** A script as the author runs it: its exit code and what it printed. */
async function cli(script: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe('npm run new', () => {
  let content = '';
  before(async () => {
    content = await mkdtemp(join(tmpdir(), 'folio-new-'));
    await cp('sandbox/site.yaml', join(content, 'site.yaml'));
  });
  after(() => rm(content, { recursive: true, force: true }));
  const env = () => ({ FOLIO_CONTENT: content });

  test('a post from a title: the slug from the title, valid front matter, and it builds', async () => {
    const r = await cli('scripts/new.ts', ['Notes on Tides: a Café Guide'], env());
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /created .*notes-on-tides-a-cafe-guide[/\\]en\.md/);
    const text = await readFile(join(content, 'posts', 'notes-on-tides-a-cafe-guide', 'en.md'), 'utf8');
    assert.match(text, /^---\ntitle: "Notes on Tides: a Café Guide"\ndate: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\ndraft: true\n/);
    // A draft, as `hugo new` writes: in a preview build, marked; in a published one, not until `npm run publish`.
    const bundle = (previews: boolean) => buildBundle({ contentDir: content, outDir: join(content, '.out'), base: '', cacheDir: join(content, '.cache'), previews });
    const preview = await bundle(true);
    assert.equal(preview.catalog.posts[0]!.entries.en!.title, 'Notes on Tides: a Café Guide');
    assert.equal(preview.catalog.posts[0]!.entries.en!.preview, 'draft');
    await assert.rejects(bundle(false), /holds no published post yet \(1 draft, 0 scheduled\)/);
    const published = await cli('scripts/publish.ts', ['notes-on-tides-a-cafe-guide'], env());
    assert.equal(published.code, 0, published.out);
    const built = await bundle(false);
    assert.equal(built.catalog.posts[0]!.entries.en!.title, 'Notes on Tides: a Café Guide');
    assert.equal(built.catalog.posts[0]!.entries.en!.preview, undefined);
  });

  test('--slug chooses the folder; --lang adds the English to translate, unstamped and unpublished', async () => {
    assert.equal((await cli('scripts/new.ts', ['Second', '--slug', 'second-essay'], env())).code, 0);
    const r = await cli('scripts/new.ts', ['Second', '--slug', 'second-essay', '--lang', 'fr'], env());
    assert.equal(r.code, 0, r.out);
    const en = await readFile(join(content, 'posts', 'second-essay', 'en.md'), 'utf8');
    const fr = await readFile(join(content, 'posts', 'second-essay', 'fr.md'), 'utf8');
    const body = en.slice(en.indexOf('\n---\n') + 6);
    assert.ok(fr.endsWith(body) && !fr.includes('source_hash'), fr);
    // A draft post: a preview build holds it, and even there the unstamped French is not published.
    const built = await buildBundle({ contentDir: content, outDir: join(content, '.out'), base: '', cacheDir: join(content, '.cache'), previews: true });
    assert.equal(built.catalog.posts.find((p) => p.slug === 'second-essay')!.entries.fr, undefined, 'the English is never published as French');
  });

  test('mistakes are one line and exit 1: an existing slug, a reserved or invalid one, an unknown language, no English source, no title', async () => {
    const cases: [string[], RegExp][] = [
      [['Second', '--slug', 'second-essay'], /already exists: choose another --slug/],
      [['Api'], /"api" is reserved/],
      [['x', '--slug', 'Not_Valid'], /not a valid slug/],
      [['Third', '--lang', 'xx'], /--lang xx is not a supported language/],
      [['Never Written', '--lang', 'de'], /has no English source to translate/],
      [[], /a title is needed/],
      [['Second', '--slug', 'second-essay', '--lang', 'fr'], /already has a fr translation/],
      [['Second', '--slug', 'second-essay', '--lang', 'fr', '--lang', 'de'], /--lang is given 2 times \(fr, de\): give it once/],
    ];
    for (const [args, message] of cases) {
      const r = await cli('scripts/new.ts', args, env());
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.out}`);
      assert.match(r.out, message);
      assert.equal(r.out.trim().split('\n').length, 1, `one line: ${r.out}`);
    }
  });
});

describe('npm run translations', () => {
  test('status: a row per post, totals per language, a legend', async () => {
    const r = await cli('scripts/translations.ts', ['status']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /^available +(\d+\/\d+ +){13}$/m);
    assert.match(r.out, /^\d+ of \d+ translations available\.$/m);
    assert.match(r.out, /✓ available +· missing +stale N: .* unstamped: not published until stamped/);
  });

  test('mistakes are one line and exit 2, never a stack trace', async () => {
    for (const [args, message] of [
      [['stamp', 'no-such-post', 'fr'], /no post "no-such-post"/],
      [['stamp', 'the-slow-web', 'xx'], /"xx" is not one of the 13 translated languages/],
      [['verify', 'the-slow-web'], /usage:/],
      [['bogus'], /usage:/],
    ] as [string[], RegExp][]) {
      const r = await cli('scripts/translations.ts', args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}`);
      assert.match(r.out, message);
      assert.equal(r.out.trim().split('\n').length, 1, `one line: ${r.out}`);
    }
  });
});

describe('configuration', () => {
  test('absolute URLs: SITE_URL, else site.yaml url, else the served address; the demo leaves it to the last two', async () => {
    assert.equal(siteUrlOf('https://essays.example/', 'https://configured.example', { PORT: '4500' }), 'https://essays.example');
    assert.equal(siteUrlOf(undefined, 'https://configured.example', { PORT: '4500' }), 'https://configured.example');
    assert.equal(siteUrlOf('', undefined, { PORT: '4500' }), 'http://localhost:4500');
    assert.doesNotMatch(await readFile('content/site.yaml', 'utf8'), /^url:/m, 'the demo names no origin: PORT=4500 npm start links to port 4500');
    const copy = await mkdtemp(join(tmpdir(), 'folio-url-'));
    try {
      // Without the menu: it names pages and categories this one-post copy does not have.
      await writeFile(join(copy, 'site.yaml'), withoutMenu(await readFile('content/site.yaml', 'utf8')));
      await cp('content/posts/the-slow-web', join(copy, 'posts', 'the-slow-web'), { recursive: true });
      const previous = process.env.PORT;
      process.env.PORT = '4500';
      try {
        const built = await buildBundle({ contentDir: copy, outDir: join(copy, '.out'), base: '', cacheDir: join(copy, '.cache') });
        assert.equal(built.catalog.site_url, 'http://localhost:4500');
      } finally {
        if (previous === undefined) delete process.env.PORT;
        else process.env.PORT = previous;
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
    assert.equal(defaultSiteUrl({ PORT: '4500' }), 'http://localhost:4500');
    assert.equal(defaultSiteUrl({}), 'http://localhost:4321');
    assert.equal(defaultSiteUrl({ PORT: '0' }), 'http://localhost:4321');
  });

  test('a busy port is one line with the fix, exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await cli('src/server/main.ts', [], { PORT: String(port), HOST: '127.0.0.1', WORKERS: '1' });
      assert.equal(r.code, 1, r.out);
      const lines = r.out.trim().split('\n').filter((l) => !/EVENT_SIGNING_SECRET/.test(l));
      assert.deepEqual(lines, [`Port ${port} is already in use (another Folio, or another program): stop it, or serve on another port, e.g. PORT=${port + 1} npm start`]);
    } finally {
      blocker.close();
    }
  });
});

describe('npm run build', () => {
  // A tmpfs is another file system than the project's disk on most machines; the check needs one.
  const other = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync('.').dev ? '/dev/shm' : undefined;
  test('an output folder on another file system is one line with the fix, exit 2, before anything is built', { skip: other ? false : 'no /dev/shm on another file system than the project' }, async () => {
    const out = join(other!, `folio-out-${process.pid}`);
    const r = await cli('scripts/build.ts', [], { FOLIO_OUT: out });
    assert.equal(r.code, 2, r.out);
    assert.deepEqual(r.out.trim().split('\n'), [`FOLIO_OUT=${out} is on another file system than the project (${process.cwd()}): Astro moves its pages there by rename, which cannot cross file systems. Put FOLIO_OUT inside the project or on its file system.`]);
    assert.equal(existsSync(out), false, 'nothing was made');
  });

  test('a FOLIO_PAGES_SLICE that is no positive number of pages is one line, exit 2, before anything is built', async () => {
    const out = await mkdtemp(join(process.cwd(), '.folio-slice-'));
    try {
      for (const value of ['0', 'many', '1.5']) {
        const r = await cli('scripts/build.ts', [], { FOLIO_OUT: out, FOLIO_PAGES_SLICE: value });
        assert.equal(r.code, 2, r.out);
        assert.deepEqual(r.out.trim().split('\n'), [`FOLIO_PAGES_SLICE takes the number of pages one process renders (a positive integer), not ${JSON.stringify(value)}`]);
      }
      assert.equal(existsSync(join(out, 'builds')), false, 'nothing was built');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
