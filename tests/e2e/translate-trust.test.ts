import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskCatalog } from '../../src/bundle/load-bundle.ts';
import matter from 'gray-matter';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { loadAll } from '../../src/translate/translation-status.ts';
import { MEMORY_FILE, type MemoryData } from '../../src/translate/memory.ts';
import { englishOnlyContent, runTranslate } from '../helpers/translate-command.ts';
import { startLibreTranslateServer, type LibreServer } from '../helpers/libretranslate-server.ts';

/**
 * Translation a team can trust (issue 40): a person's text is never replaced in silence nor taken
 * from an engine, at any point a run may be killed; junk is refused before anything is kept; a
 * hung engine holds a run for a bounded time; the commands explain themselves.
 */
const apertiumSkip = isApertiumInstalled() ? false : 'Apertium not found (apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt; .ci/run installs it)';
const SLUG = 'the-slow-web';
const temps: string[] = [];

/** A copy of the content with only these posts, in English only, and these settings (removed after the tests). */
async function contentCopy(posts: string[], settings: string): Promise<string> {
  const root = await englishOnlyContent('folio-translate-trust-', posts, settings);
  temps.push(root);
  return root;
}

const memoryOf = async (root: string, slug = SLUG): Promise<MemoryData> => {
  const file = join(root, 'posts', slug, MEMORY_FILE);
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as MemoryData) : { version: 1, segments: {}, written: {} };
};

/** `npm run translations -- ...` with a deadline: its output and exit code. */
function translations(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/translations.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env, timeout: 120_000, killSignal: 'SIGKILL' });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The segments the post's line says were sent (the summary's count includes term names: "web" comes back unchanged and is sent each run). */
const postSent = (out: string) => Number(new RegExp(`^${SLUG} es \\(apertium\\): .*sent (\\d+)`, 'm').exec(out)?.[1] ?? NaN);

/** The paragraphs of a body that are plain prose (no markup), long enough to be sentences. */
const proseParagraphs = (body: string) => body.split('\n\n').filter((p) => /^[A-Z][^\n[\]`*_<>|#]{60,}\.$/.test(p.trim())).map((p) => p.trim());

after(async () => {
  for (const root of temps) await rm(root, { recursive: true, force: true });
});

describe('a person\'s correction is never lost (Apertium, the real engine)', { skip: apertiumSkip }, () => {
  let root: string;
  let english: string;
  let prose: string[];
  const es = () => join(root, 'posts', SLUG, 'es.md');
  const en = () => join(root, 'posts', SLUG, 'en.md');
  const CORRECTION = 'Un lector corrigió este párrafo a mano, con cuidado.';

  before(async () => {
    root = await contentCopy([SLUG], 'providers: {es: apertium}\n');
    english = await readFile(en(), 'utf8');
    prose = proseParagraphs(matter(english).content);
    assert.ok(prose.length >= 2, 'two plain paragraphs to edit');
  });

  test('a correction whose English changes is kept and flagged needs_review; verify approves it; --retranslate-reviewed replaces it', async () => {
    const first = await runTranslate(root, ['--lang', 'es']);
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, /^cost apertium: \d+ characters, about \$0\.00$/m, 'the cost report: characters and the price at the documented rate');
    // A reviewer corrects the Spanish of the first plain paragraph.
    const machine = await readFile(es(), 'utf8');
    const translatedParagraph = proseParagraphs(matter(machine).content)[0]!;
    await writeFile(es(), machine.replace(translatedParagraph, CORRECTION));
    // Then the English of that same paragraph changes.
    await writeFile(en(), english.replace(prose[0]!, prose[0]!.replace(/\.$/, ', as it turned out.')));

    const edited = await runTranslate(root, ['--lang', 'es']);
    assert.equal(edited.code, 0, edited.out);
    assert.equal(postSent(edited.out), 0, `the person's text is kept, not sent: ${edited.out}`);
    assert.match(edited.out, /\(1 by a person, 1 to review\)/);
    assert.match(edited.out, /paragraph at line \d+ of en\.md: needs review/);
    const kept = matter(await readFile(es(), 'utf8'));
    assert.ok(kept.content.includes(CORRECTION), 'the correction is in the file');
    assert.equal((kept.data.needs_review as string[]).length, 1, 'flagged in the front matter');
    // The line named is the English paragraph's line in en.md, counted from the file's first line.
    const line = Number(/paragraph at line (\d+)/.exec((kept.data.needs_review as string[])[0]!)![1]);
    assert.ok((await readFile(en(), 'utf8')).split('\n')[line - 1]!.endsWith(', as it turned out.'), `line ${line} of en.md is the edited paragraph`);
    const post = (await loadAll(root)).find((p) => p.slug === SLUG)!;
    assert.deepEqual(post.translations.find((t) => t.lang === 'es')!.needs_review, kept.data.needs_review);
    const table = await translations(['status', '--root', root]);
    assert.match(table.out.split('\n').find((l) => l.startsWith(SLUG))!, /review 1/, table.out);
    const memory = await memoryOf(root);
    assert.deepEqual(memory.written.es!.filter(([, , by]) => by !== `${memory.written.es![0]![2]}`).map(([, text, by]) => [text, by]), [[CORRECTION, 'review']], 'the memory says who wrote each segment');

    // A run without the flag keeps it (nothing sent); verify approves it as the person's.
    const again = await runTranslate(root, ['--lang', 'es']);
    assert.equal(postSent(again.out), 0, again.out);
    const verified = await translations(['verify', SLUG, 'es', '--root', root]);
    assert.equal(verified.code, 0, verified.out);
    const approved = matter(await readFile(es(), 'utf8'));
    assert.equal(approved.data.needs_review, undefined);
    assert.equal(approved.data.verified, true);
    assert.ok(approved.content.includes(CORRECTION));
    const afterVerify = await runTranslate(root, ['--lang', 'es']);
    assert.doesNotMatch(afterVerify.out, new RegExp(`^${SLUG} es`, 'm'), `approved: nothing left to translate: ${afterVerify.out}`);
    assert.ok((await readFile(es(), 'utf8')).includes(CORRECTION));
    assert.deepEqual((await memoryOf(root)).written.es!.filter(([, , by]) => by === 'person' || by === 'review').map(([, text, by]) => [text, by]), [[CORRECTION, 'person']], 'approved: the person\'s for the current English');

    // The English changes again: flagged again; --retranslate-reviewed sends it and the engine's text replaces it.
    await writeFile(en(), english.replace(prose[0]!, prose[0]!.replace(/\.$/, ', as it turned out in the end.')));
    const flagged = await runTranslate(root, ['--lang', 'es']);
    assert.match(flagged.out, /1 to review/);
    const replaced = await runTranslate(root, ['--lang', 'es', '--retranslate-reviewed']);
    assert.equal(replaced.code, 0, replaced.out);
    assert.equal(postSent(replaced.out), 1, replaced.out);
    const retranslated = matter(await readFile(es(), 'utf8'));
    assert.ok(!retranslated.content.includes(CORRECTION), 'the engine\'s text replaced it');
    assert.equal(retranslated.data.needs_review, undefined);
    const rows = await translations(['status', '--root', root]);
    assert.match(rows.out.split('\n').find((l) => l.startsWith(SLUG))!, /^\S+\s+✓/, rows.out);
  });
});

describe('a run killed between its writes never makes engine or outdated text a person\'s (Apertium)', { skip: apertiumSkip }, () => {
  const POINTS = ['checkpoint', 'journal', 'file', 'memory'];
  const PERSON = 'Una persona escribió esta frase, y solo esta.';
  let base: string;
  let english: string;
  let prose: string[];

  before(async () => {
    base = await contentCopy([SLUG], 'providers: {es: apertium}\n');
    const en = join(base, 'posts', SLUG, 'en.md');
    english = await readFile(en, 'utf8');
    prose = proseParagraphs(matter(english).content);
  });

  /** The texts of a language the memory holds as a person's, and those its record says a person wrote. */
  const persons = (memory: MemoryData, lang = 'es') => ({
    human: Object.values(memory.segments).flatMap((byLang) => (byLang[lang]?.human === undefined ? [] : [byLang[lang]!.human!])),
    written: (memory.written[lang] ?? []).filter(([, , by]) => by === 'person' || by === 'review').map(([, text]) => text),
  });

  for (const point of POINTS) {
    test(`killed at "${point}": the first translation, then a correction with an English edit elsewhere`, async () => {
      // The first translation of a post, killed at this point, then run again.
      const root = await mkdtemp(join(tmpdir(), 'folio-translate-kill-'));
      temps.push(root);
      await cp(base, root, { recursive: true });
      const killed = await runTranslate(root, ['--lang', 'es'], { ...process.env, FOLIO_TRANSLATE_KILL_AT: point });
      assert.equal(killed.signal, 'SIGKILL', `killed at ${point}: ${killed.out}`);
      const rerun = await runTranslate(root, ['--lang', 'es']);
      assert.equal(rerun.code, 0, rerun.out);
      assert.doesNotMatch(rerun.out, /\([1-9]\d* by a person/, `nothing is a person's: ${rerun.out}`);
      assert.deepEqual(persons(await memoryOf(root)), { human: [], written: [] });

      // A person corrects one paragraph; the English of another changes; the run is killed at this point, then run again.
      const es = join(root, 'posts', SLUG, 'es.md');
      const machine = await readFile(es, 'utf8');
      const spanish = proseParagraphs(matter(machine).content);
      await writeFile(es, machine.replace(spanish[0]!, PERSON));
      await writeFile(join(root, 'posts', SLUG, 'en.md'), english.replace(prose[1]!, `${prose[1]!.slice(0, -1)}, and nobody noticed.`));
      const killedAgain = await runTranslate(root, ['--lang', 'es'], { ...process.env, FOLIO_TRANSLATE_KILL_AT: point });
      assert.equal(killedAgain.signal, 'SIGKILL', `killed at ${point}: ${killedAgain.out}`);
      const resumed = await runTranslate(root, ['--lang', 'es']);
      assert.equal(resumed.code, 0, resumed.out);
      // Killed before the file was written, the rerun writes it and names the person's segment; after, it has nothing left to do.
      if (point === 'checkpoint' || point === 'journal') assert.match(resumed.out, /\(1 by a person\)/, resumed.out);
      assert.deepEqual(persons(await memoryOf(root)), { human: [PERSON], written: [PERSON] }, `only the person's sentence is a person's (killed at ${point})`);
      const written = await readFile(es, 'utf8');
      assert.ok(written.includes(PERSON));
      assert.doesNotMatch(written, /needs_review/);
      assert.deepEqual((await readdir(join(root, 'posts', SLUG))).filter((n) => n.endsWith('.tmp')), []);
    });
  }
});

describe('junk is refused, a hung engine is bounded (a local LibreTranslate server)', () => {
  let server: LibreServer;
  let env: NodeJS.ProcessEnv;
  const POSTS = ['small-tools', SLUG];
  before(async () => {
    server = await startLibreTranslateServer();
    env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LIBRETRANSLATE_'))), LIBRETRANSLATE_URL: server.url };
  });
  after(() => server.close());

  test('an engine answering "ERROR ERROR translation unavailable": nothing written or cached, every segment reported where it is', async () => {
    const root = await contentCopy(POSTS, 'providers: {de: libretranslate}\n');
    const taxonomies = await readFile(join(root, 'taxonomies.yaml'), 'utf8').catch(() => '');
    server.faults.add({ kind: 'answer', text: 'ERROR ERROR translation unavailable', times: 1000 });
    const run = await runTranslate(root, ['--lang', 'de'], env);
    server.faults.queue.length = 0;
    assert.equal(run.code, 1, run.out);
    for (const slug of POSTS) {
      assert.ok(!existsSync(join(root, 'posts', slug, 'de.md')), `${slug}: nothing written`);
      const memory = await memoryOf(root, slug);
      assert.deepEqual(Object.values(memory.segments).filter((byLang) => byLang.de), [], `${slug}: nothing cached`);
    }
    assert.equal(await readFile(join(root, 'taxonomies.yaml'), 'utf8').catch(() => ''), taxonomies, 'no term name written');
    assert.match(run.out, /an engine's error message, not a translation/);
    assert.match(run.out, /not named: (the same answer \("ERROR ERROR translation unavailable"\)|an engine's error message)/);
    // Headings are reported at their line in en.md, counted from the file's first line (front matter included).
    const headings = [...run.out.matchAll(/^ {2}(\S+) de: heading at line (\d+):/gm)];
    assert.ok(headings.length > 0, run.out);
    for (const [, slug, line] of headings) assert.match((await readFile(join(root, 'posts', slug!, 'en.md'), 'utf8')).split('\n')[Number(line) - 1]!, /^#/, `${slug} line ${line}`);
  });

  test('an answer left in English, in Latin letters for Russian: refused; term names that come back unchanged stay missing', async () => {
    const root = await contentCopy(POSTS, 'providers: {de: libretranslate, ru: libretranslate}\n');
    server.faults.add({ kind: 'echo', times: 1000 });
    const run = await runTranslate(root, ['--lang', 'de'], env);
    server.faults.queue.length = 0;
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /left in English/);
    assert.match(run.out, /not named: came back unchanged \(left missing\)/);
    assert.ok(!existsSync(join(root, 'posts', SLUG, 'de.md')));
    const status = await translations(['status', '--root', root]);
    assert.doesNotMatch(status.out.split('\n').find((l) => l.startsWith('term names missing'))!, /^term names missing\s+✓/, status.out);
    // An answer in Latin letters for Russian: no Cyrillic, refused.
    server.faults.add({ kind: 'echo', times: 1000 });
    const russian = await runTranslate(root, ['--lang', 'ru'], env);
    server.faults.queue.length = 0;
    assert.match(russian.out, /no Cyrillic text: not a translation into ru/);
    assert.ok(!existsSync(join(root, 'posts', SLUG, 'ru.md')));
  });

  test('URLs, e-mail addresses and numbers alone are never sent', async () => {
    const root = await contentCopy([SLUG], 'providers: {de: libretranslate}\n');
    const en = join(root, 'posts', SLUG, 'en.md');
    await writeFile(en, `${await readFile(en, 'utf8')}\nWrite to [editor@example.org](mailto:editor@example.org) or see [https://example.org/archive](https://example.org/archive) and https://example.net/x.\n\n| Year | Readers |\n|---|---|\n| 2024 | 1,200 |\n`);
    const from = server.received.length;
    const run = await runTranslate(root, ['--lang', 'de'], env);
    assert.equal(run.code, 0, run.out);
    const sent = server.received.slice(from).filter((r) => r.method === 'POST').flatMap((r) => (r.body as { q: string[] }).q);
    assert.ok(sent.some((q) => q.startsWith('Write to')), 'the sentence is sent');
    for (const q of sent) assert.doesNotMatch(q, /example\.(org|net)|^\s*[\d,]+\s*$|^2024$/, `never sent: ${q}`);
    const de = await readFile(join(root, 'posts', SLUG, 'de.md'), 'utf8');
    for (const kept of ['editor@example.org', 'https://example.org/archive', 'https://example.net/x', '| 2024 | 1,200 |']) assert.ok(de.includes(kept), `${kept} as it was`);
  });

  test('a hung engine: each request is abandoned after the timeout and the run stops when its retry budget is spent', async () => {
    const root = await contentCopy(POSTS, 'providers: {de: libretranslate}\nrun: {request_timeout_seconds: 1, retry_budget_seconds: 3}\n');
    server.faults.add({ kind: 'hang', times: 1000 });
    // Deadline: the bound is about 4 s (3 s of budget and a last 1 s request); 60 s leaves room for a loaded machine.
    const run = await runTranslate(root, ['--lang', 'de'], env, 60_000);
    server.faults.queue.length = 0;
    assert.equal(run.code, 2, run.out);
    assert.match(run.out, /no answer from .* within 1 s; the run's retry budget is spent/);
    assert.ok(run.ms < 30_000, `bounded: ${Math.round(run.ms)} ms`);
    assert.ok(!existsSync(join(root, 'posts', SLUG, 'de.md')));
  });

  test('a Retry-After beyond the cap (3600 s) is not waited for: the run stops at once, keeping what it did', async () => {
    const root = await contentCopy(POSTS, 'providers: {de: libretranslate}\n');
    server.faults.add({ kind: 'pass', times: 1 }, { kind: 'status', status: 429, error: 'Slowdown: 30 per 1 minute', retryAfter: 3600, times: 1000 });
    const run = await runTranslate(root, ['--lang', 'de'], env, 60_000);
    server.faults.queue.length = 0;
    assert.equal(run.code, 2, run.out);
    assert.match(run.out, /asks to wait 3600 s, over the 120 s a run waits/);
    assert.ok(run.ms < 30_000, `not waited: ${Math.round(run.ms)} ms`);
  });
});

describe('temporary files and the commands\' help', () => {
  test('a temporary file a killed write left beside a post is not an asset, and translate removes it', { skip: apertiumSkip }, async () => {
    const root = await contentCopy([SLUG], 'providers: {es: apertium}\n');
    // writeWhole's name for it: <file>.<pid>.tmp, of a process that is gone.
    const leftover = join(root, 'posts', SLUG, 'es.md.99999999.tmp');
    await writeFile(leftover, '---\ntitle: half\n');
    const post = (await loadAll(root)).find((p) => p.slug === SLUG)!;
    assert.ok(!post.assets.some((a) => a.endsWith('.tmp')), `not published: ${post.assets.join(', ')}`);
    const run = await runTranslate(root, ['--lang', 'es']);
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /removed es\.md\.99999999\.tmp, left by a run that was killed/);
    assert.ok(!existsSync(leftover));
  });

  test('--help on translate and every translations subcommand; status fits the terminal, or --wide', async () => {
    for (const args of [['status', '--help'], ['stamp', '--help'], ['verify', '--help'], ['--help'], ['help', 'status']]) {
      const r = await translations(args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.out}`);
      assert.match(r.out, /^usage: npm run translations -- /, args.join(' '));
      assert.doesNotMatch(r.out, /\n\s+at /, 'no stack trace');
    }
    const help = await runTranslate('content', ['--help']);
    assert.equal(help.code, 0, help.out);
    assert.match(help.out, /--retranslate-reviewed/);
    const narrow = await translations(['status'], { ...process.env, COLUMNS: '80' });
    assert.equal(narrow.code, 0, narrow.out);
    for (const line of narrow.out.split('\n')) assert.ok(line.length <= 80, `${line.length} characters: ${line}`);
    const wide = await translations(['status', '--wide'], { ...process.env, COLUMNS: '80' });
    assert.match(wide.out, /^ +es +zh +ar +pt-br +fr +ja +de +ru +id +hi +ko +tr +vi *$/m);
  });
});

describe('what the build publishes (a real build of a copy of the demo)', () => {
  test('a translation with needs_review is published as stale; a leftover temp file is not published', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-translate-trust-build-'));
    temps.push(dir);
    const content = join(dir, 'content');
    await cp('content', content, { recursive: true });
    const KEPT = ['the-slow-web', 'bread-and-time'];
    for (const slug of await readdir(join(content, 'posts'))) if (!KEPT.includes(slug)) await rm(join(content, 'posts', slug), { recursive: true });
    await rm(join(content, 'taxonomies.yaml'));
    // The demo's menu names categories of essays left out here: its pages alone stay (menu_names names them).
    const site = join(content, 'site.yaml');
    await writeFile(site, (await readFile(site, 'utf8')).replace(/^menu:.*$/m, 'menu: [about, colophon]'));
    const es = join(content, 'posts', SLUG, 'es.md');
    await writeFile(es, (await readFile(es, 'utf8')).replace(/^---\n/, '---\nneeds_review: ["paragraph at line 11 of en.md"]\n'));
    await writeFile(join(content, 'posts', 'bread-and-time', 'cover.jpg.99999999.tmp'), 'half a file');
    const out = join(dir, 'dist');
    // Deadline: a build of two essays takes about a minute on a loaded machine; its process group is killed at 10.
    const built = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['scripts/build.ts'], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: out, FOLIO_CACHE: join(dir, 'cache') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10 * 60_000);
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
    assert.equal(built.code, 0, built.output);
    const catalog = (await diskCatalog(join(out, 'current', 'bundle', 'main')))!;
    const entries = catalog.posts.find((p) => p.slug === SLUG)!.entries;
    assert.equal(entries.es!.state, 'stale', 'a person\'s text to review is stale in the API');
    assert.equal(entries.zh!.state, 'available');
    const files = (await readdir(join(out, 'current'), { recursive: true })).map(String);
    assert.deepEqual(files.filter((f) => f.endsWith('.tmp')), [], 'no temp file published');
    assert.ok(files.some((f) => f.endsWith('cover.jpg')), 'the post\'s media are published');
  });
});
