import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { assertMachineTranslations } from '../helpers/machine-translation.ts';
import { startDeepLServer, TARGETS_2025, type DeepLServer, type Logged } from '../helpers/deepl-server.ts';

/** Three demo essays: inline code (placeholders), images with alt text, raw HTML and a video. */
const POSTS = ['small-tools', 'bread-and-time', 'tidal-energy'];
const LANGS = ['de', 'fr'];
if (!isApertiumInstalled()) console.log('# Apertium not found: the DeepL test server translates French with its pseudo-locale too');

let server: DeepLServer;
const temps: string[] = [];

/** A copy of the demo content with only POSTS, and none of their German and French. */
async function copy(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'folio-deepl-'));
  temps.push(root);
  await cp('content', root, { recursive: true });
  // Standalone pages are translated too (tests/e2e/translate-pages.test.ts): left out, so the counts are the posts'.
  await rm(join(root, 'pages'), { recursive: true });
  for (const slug of await readdir(join(root, 'posts'))) {
    if (!POSTS.includes(slug)) await rm(join(root, 'posts', slug), { recursive: true, force: true });
    else for (const lang of LANGS) await rm(join(root, 'posts', slug, `${lang}.md`), { force: true });
  }
  return root;
}

/** `npm run translate` as an author runs it, DeepL's variables pointing at the local server unless `env` says otherwise. */
function translate(root: string, args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; out: string; requests: Logged[] }> {
  const from = server.log.length;
  const vars: NodeJS.ProcessEnv = { ...process.env, DEEPL_AUTH_KEY: server.key, DEEPL_SERVER_URL: server.url, ...env };
  for (const [k, v] of Object.entries(vars)) if (v === undefined) delete vars[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/translate.ts', '--root', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: vars });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out, requests: server.log.slice(from) }));
  });
}

const translations = (requests: Logged[]) => requests.filter((r) => r.path === '/v2/translate');
/** The segments DeepL translated (answered 200), as `<lang> <text>`. */
const answered = (requests: Logged[]) => translations(requests).filter((r) => r.status === 200).flatMap((r) => r.texts!.map((t) => `${r.params!.target_lang} ${t}`));
const sentOf = (out: string) => Number(/(\d+) segments sent/.exec(out)?.[1] ?? NaN);

describe('npm run translate with DeepL, against a local DeepL API v2 server', () => {
  /** Segments the whole run sends into de and fr, measured by the first test. */
  let whole: string[] = [];
  /** Characters of each of its requests, in order. */
  let sizes: number[] = [];
  before(async () => {
    server = await startDeepLServer();
  });
  after(async () => {
    await server.close();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  test('three essays into de and fr: written as deepl:v2, the English structure exactly, sent with tags kept and placeholders ignored', async () => {
    const root = await copy();
    const run = await translate(root, ['--provider', 'deepl', '--lang', LANGS.join(',')]);
    assert.equal(run.code, 0, run.out);
    // The account's language list is read once, before anything is sent.
    assert.deepEqual(run.requests[0], { ...run.requests[0], method: 'GET', path: '/v2/languages', status: 200 });
    assert.equal(run.requests.filter((r) => r.path === '/v2/languages').length, 1);
    for (const r of translations(run.requests)) {
      assert.equal(r.status, 200);
      assert.ok(r.texts!.length <= 50 && r.bytes <= 128 * 1024);
      assert.deepEqual(
        { source: r.params!.source_lang, tags: r.params!.tag_handling, ignore: r.params!.ignore_tags, inline: r.params!.non_splitting_tags },
        { source: 'en', tags: 'xml', ignore: 'x', inline: 'em,strong,del,a,x' },
      );
    }
    assert.deepEqual(new Set(translations(run.requests).map((r) => r.params!.target_lang)), new Set(LANGS));
    whole = answered(run.requests);
    sizes = translations(run.requests).map((r) => r.texts!.join('').length);

    await assertMachineTranslations(root, LANGS, /^deepl:v2$/);
    const again = await translate(root, ['--provider', 'deepl', '--lang', LANGS.join(',')]);
    assert.equal(again.code, 0, again.out);
    assert.equal(translations(again.requests).length, 0, 'nothing changed: nothing sent');
  });

  test("429 with Retry-After: 1, twice: the run waits the second DeepL asked for each time (deepl-node's own retries are off) and carries on", async () => {
    const root = await copy();
    server.faults.push({ status: 429, retryAfter: 1 }, { status: 429, retryAfter: 1 });
    const run = await translate(root, ['--provider', 'deepl', '--lang', 'de']);
    assert.equal(run.code, 0, run.out);
    assert.equal(run.out.match(/deepl: DeepL: too many requests \(429\); trying again in 1\.0 s/g)?.length, 2, run.out);
    const sent = translations(run.requests);
    assert.deepEqual(sent.slice(0, 3).map((r) => r.status), [429, 429, 200]);
    assert.ok(sent[1]!.at - sent[0]!.at >= 1000 && sent[2]!.at - sent[1]!.at >= 1000, 'each retry came after the Retry-After');
    assert.deepEqual(new Set(answered(run.requests)), new Set(whole.filter((t) => t.startsWith('de '))));
  });

  test('500 and 503: tried again, the run completes', async () => {
    const root = await copy();
    server.faults.push({ status: 500 }, { status: 503 });
    const run = await translate(root, ['--provider', 'deepl', '--lang', 'de']);
    assert.equal(run.code, 0, run.out);
    assert.equal(run.out.match(/trying again in/g)?.length, 2, run.out);
    assert.match(run.out, /3 translations written/);
  });

  test('456 stops the run at once with a clear message; what was translated is kept; the next run sends only the rest', async () => {
    const root = await copy();
    // Enough for two requests: the third meets the 456.
    server.quota = sizes[0]! + sizes[1]! + 10;
    const stopped = await translate(root, ['--provider', 'deepl', '--lang', LANGS.join(',')]);
    server.quota = Infinity;
    assert.equal(stopped.code, 2, stopped.out);
    assert.match(stopped.out.trim().split('\n').at(-1)!, /^translate: stopped: deepl: DeepL's character quota is used up \(456\).*what was done is kept/);
    const sent = translations(stopped.requests);
    assert.equal(sent.at(-1)!.status, 456, 'nothing sent after the 456');
    assert.equal(sent.filter((r) => r.status === 456).length, 1);
    const first = answered(stopped.requests);
    assert.ok(first.length > 0);
    const memories = await Promise.all(POSTS.map((slug) => readFile(join(root, 'posts', slug, '.translation-memory.json'), 'utf8').catch(() => '')));
    assert.ok(memories.some((m) => m.includes('deepl:v2')), 'the memory holds what DeepL translated');

    const rest = await translate(root, ['--provider', 'deepl', '--lang', LANGS.join(',')]);
    assert.equal(rest.code, 0, rest.out);
    const second = answered(rest.requests);
    assert.equal(second.filter((t) => first.includes(t)).length, 0, 'nothing sent twice');
    assert.deepEqual(new Set([...first, ...second]), new Set(whole));
    assert.equal(first.length + second.length, whole.length);
  });

  test('413 (a body over the limit): the provider halves the batch and the run completes', async () => {
    const root = await copy();
    server.maxBodyBytes = 4096;
    const run = await translate(root, ['--provider', 'deepl', '--lang', 'de']);
    server.maxBodyBytes = 128 * 1024;
    assert.equal(run.code, 0, run.out);
    const sent = translations(run.requests);
    assert.ok(sent.some((r) => r.status === 413), 'some batch was too large');
    for (const r of sent.filter((r) => r.status === 200)) assert.ok(r.bytes <= 4096);
    assert.deepEqual(new Set(answered(run.requests)), new Set(whole.filter((t) => t.startsWith('de '))));
    assert.match(run.out, /3 translations written/);
  });

  test('a placeholder dropped: the segment is sent once more alone, then reported; the file is not written; the next run sends only it', async () => {
    const root = await copy();
    // The batch and the first segment's lone retry lose a placeholder; the other retries come back whole.
    server.faults.push({ drop: 'placeholder' }, { drop: 'placeholder' });
    const run = await translate(root, ['small-tools', '--provider', 'deepl', '--lang', 'de']);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /^ {2}small-tools de: \w.* at line \d+: .+$/m, 'which segment and why');
    assert.match(run.out, /small-tools de \(deepl\): .*not written: 1 segment failed/);
    await assert.rejects(stat(join(root, 'posts', 'small-tools', 'de.md')));
    const retried = translations(run.requests).filter((r) => r.texts!.length === 1);
    assert.ok(retried.length >= 1 && /<x i="\d+"><\/x>/.test(retried[0]!.texts![0]!), 'the failed segment went alone');

    const again = await translate(root, ['small-tools', '--provider', 'deepl', '--lang', 'de']);
    assert.equal(again.code, 0, again.out);
    assert.equal(sentOf(again.out), 1, again.out);
    assert.deepEqual(answered(again.requests), [`de ${retried[0]!.texts![0]}`]);
  });

  test('a glossary with fixed translations becomes a DeepL glossary (POST /v2/glossaries, TSV), used with glossary_id; the term comes out as given; an unchanged glossary is reused, an edited one made anew', async () => {
    const GLOSSARY = 'do_not_translate: [Unix]\nterms:\n  pocketknife: {de: Taschenmesser}\n';
    const glossaryRequests = (requests: Logged[]) => requests.filter((r) => r.path === '/v2/glossaries');
    const root = await copy();
    await writeFile(join(root, 'glossary.yaml'), GLOSSARY);
    const run = await translate(root, ['small-tools', '--provider', 'deepl', '--lang', 'de']);
    assert.equal(run.code, 0, run.out);
    const created = glossaryRequests(run.requests).filter((r) => r.method === 'POST');
    assert.equal(created.length, 1, 'one glossary made');
    assert.equal(created[0]!.status, 201);
    // The do-not-translate term is a placeholder, never a glossary entry.
    assert.deepEqual({ ...created[0]!.params, name: undefined }, { name: undefined, source_lang: 'en', target_lang: 'de', entries_format: 'tsv', entries: 'pocketknife\tTaschenmesser' });
    assert.match(String(created[0]!.params!.name), /^folio-en-de-[\w-]{12}$/);
    const id = server.glossaries.find((g) => g.name === created[0]!.params!.name)!.glossary_id;
    for (const r of translations(run.requests)) assert.deepEqual({ id: r.params!.glossary_id, source: r.params!.source_lang }, { id, source: 'en' });
    const written = await readFile(join(root, 'posts', 'small-tools', 'de.md'), 'utf8');
    assert.match(written, /Taschenmesser/);
    assert.doesNotMatch(written, /efinktekcop/i, 'the term is not left to the engine');
    assert.match(written, /\bUnix\b/, 'the do-not-translate term kept');

    // Another copy without memory: the same glossary is found in the account's list, not made again.
    const other = await copy();
    await writeFile(join(other, 'glossary.yaml'), GLOSSARY);
    const again = await translate(other, ['small-tools', '--provider', 'deepl', '--lang', 'de']);
    assert.equal(again.code, 0, again.out);
    assert.deepEqual(glossaryRequests(again.requests).map((r) => `${r.method} ${r.status}`), ['GET 200']);
    assert.ok(translations(again.requests).length > 0 && translations(again.requests).every((r) => r.params!.glossary_id === id));
    assert.equal(server.glossaries.length, 1);

    // An edited entry: a new glossary under a new name.
    await writeFile(join(other, 'glossary.yaml'), GLOSSARY.replace('Taschenmesser', 'Klappmesser'));
    const edited = await translate(other, ['small-tools', '--provider', 'deepl', '--lang', 'de']);
    assert.equal(edited.code, 0, edited.out);
    assert.deepEqual(glossaryRequests(edited.requests).map((r) => `${r.method} ${r.status}`), ['GET 200', 'POST 201']);
    assert.equal(server.glossaries.length, 2);
    assert.match(await readFile(join(other, 'posts', 'small-tools', 'de.md'), 'utf8'), /Klappmesser/);
  });

  test('one English sentence edited: that sentence alone is sent, with its paragraph as DeepL\'s context', async () => {
    const root = await copy();
    const first = await translate(root, ['--provider', 'deepl', '--lang', 'de', 'small-tools']);
    assert.equal(first.code, 0, first.out);
    const en = join(root, 'posts', 'small-tools', 'en.md');
    const sentence = 'The programs I trust most are small and a little boring.';
    const edited = 'The programs I trust most are small and rather boring.';
    const text = await readFile(en, 'utf8');
    const paragraph = text.split('\n\n').find((p) => p.includes(sentence))!;
    await writeFile(en, text.replace(sentence, edited));
    const run = await translate(root, ['--provider', 'deepl', '--lang', 'de', 'small-tools']);
    assert.equal(run.code, 0, run.out);
    const sent = translations(run.requests).filter((r) => r.status === 200);
    assert.deepEqual(sent.map((r) => r.texts), [[edited]], 'the sentence alone');
    assert.equal(sent[0]!.params!.context, paragraph.replace(sentence, edited).replace(/\n/g, ' '), 'its paragraph as context');
  });

  test('no DEEPL_AUTH_KEY, a refused key, or a language the account lacks: one line, exit 2, nothing translated', async () => {
    const root = await copy();
    const missing = await translate(root, ['--provider', 'deepl', '--lang', 'de'], { DEEPL_AUTH_KEY: undefined });
    assert.equal(missing.code, 2, missing.out);
    assert.match(missing.out, /^translate: deepl needs DEEPL_AUTH_KEY/);
    assert.equal(missing.out.trim().split('\n').length, 1, missing.out);
    assert.equal(missing.requests.length, 0, 'nothing sent');

    const refused = await translate(root, ['--provider', 'deepl', '--lang', 'de'], { DEEPL_AUTH_KEY: 'not-the-key' });
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /^translate: DeepL refused DEEPL_AUTH_KEY \(403\)/);
    assert.equal(refused.out.trim().split('\n').length, 1, refused.out);
    assert.equal(translations(refused.requests).length, 0);

    const hindi = await translate(root, ['--lang', 'hi', '--provider', 'deepl']);
    assert.equal(hindi.code, 2, hindi.out);
    assert.match(hindi.out, /^translate: deepl does not translate into hi/);
    assert.equal(hindi.out.trim().split('\n').length, 1, hindi.out);
    assert.equal(translations(hindi.requests).length, 0);

    // DeepL added Hindi in January 2026: an account whose list has it is served.
    server.targets = [...TARGETS_2025, { language: 'HI', name: 'Hindi', supports_formality: false }];
    const listed = await translate(root, ['--lang', 'hi', '--provider', 'deepl', '--dry-run']);
    server.targets = TARGETS_2025;
    assert.equal(listed.code, 0, listed.out);
    assert.match(listed.out, /hi\s+deepl/);
  });
});
