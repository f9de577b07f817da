import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { loadAll, status } from '../../src/translate/translation-status.ts';
import { segmentKey } from '../../src/translate/memory.ts';
import { assertMachineTranslations } from '../helpers/machine-translation.ts';
import { runTranslate, sentOf } from '../helpers/translate-command.ts';

const apertiumSkip = isApertiumInstalled() ? false : 'Apertium not found (apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt; .ci/run installs it)';
const LANGS = ['es', 'fr', 'pt-br'];

const translate = (root: string, ...args: string[]) => runTranslate(root, args);

describe('npm run translate with Apertium, the real offline engine', { skip: apertiumSkip }, () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-translate-'));
    await cp('content', root, { recursive: true });
    // The demo's own es, fr and pt-br go: every essay is translated by the engine.
    for (const slug of await readdir(join(root, 'posts'))) for (const lang of LANGS) await rm(join(root, 'posts', slug, `${lang}.md`), { force: true });
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('every demo essay into es, fr and pt-br: the English structure exactly, the words in another language, stamped and available', async () => {
    // A rate well above what Apertium needs here: kept, counted and reported, never waited on.
    const settings = join(root, 'translation.yaml');
    await writeFile(settings, `${await readFile(settings, 'utf8')}rates:\n  apertium: {requests_per_minute: 100000, characters_per_minute: 100000000}\n`);
    const run = await translate(root, '--lang', LANGS.join(','));
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /^apertium: \d+ requests, \d+ characters \(\d+ requests and \d+ characters a minute; 0\.0 s waited to keep to its rate\)$/m);
    await assertMachineTranslations(root, LANGS, /^apertium:\d/);
  });

  test('nothing changed: nothing is sent; one English sentence edited: one segment per language; a person\'s correction is kept', async () => {
    // --lang given once per language is the same as one list.
    const again = await translate(root, ...LANGS.flatMap((l) => ['--lang', l]));
    assert.equal(again.code, 0, again.out);
    assert.equal(sentOf(again.out), 0, again.out);

    const post = join(root, 'posts', 'the-slow-web');
    const en = await readFile(join(post, 'en.md'), 'utf8');
    await writeFile(join(post, 'en.md'), en.replace('The site had simply stopped being paid for.', 'The site had simply stopped being paid for, quietly.'));
    // A reviewer's correction of another paragraph, in the Spanish file.
    const es = await readFile(join(post, 'es.md'), 'utf8');
    const heading = /^## .*$/m.exec(matter(es).content)![0];
    await writeFile(join(post, 'es.md'), es.replace(heading, '## Lo que un lector corrigió'));

    const table = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['scripts/translations.ts', 'status', '--root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('close', () => resolve(out));
    });
    assert.match(table.split('\n').find((l) => l.startsWith('the-slow-web'))!, /stale 1 /, 'status counts the stale segments');
    const dry = await translate(root, 'the-slow-web', '--dry-run');
    assert.equal(dry.code, 0, dry.out);
    for (const lang of LANGS) assert.match(dry.out, new RegExp(`the-slow-web ${lang} \\(apertium\\): \\d+ segments, \\d+ from memory.*to send 1 \\(`), dry.out);

    const edit = await translate(root, '--lang', LANGS.join(','));
    assert.equal(edit.code, 0, edit.out);
    assert.equal(sentOf(edit.out), LANGS.length, edit.out);
    const kept = await readFile(join(post, 'es.md'), 'utf8');
    assert.match(kept, /^## Lo que un lector corrigió$/m, 'the correction survives a new translation');
    assert.match(edit.out, /the-slow-web es .*\(1 by a person\)/);
    for (const lang of LANGS) assert.equal(status((await loadAll(root)).find((p) => p.slug === 'the-slow-web')!).states[lang], 'available');
  });

  test('the cover alt text (featured_image_alt) is translated like the title; an alt edited or never sent goes alone, then nothing', async () => {
    const posts = (await loadAll(root)).filter((p) => p.english.featured_image_alt);
    assert.ok(posts.length >= 3, 'demo essays with a cover alt text');
    const altOf = async (slug: string, lang: string) => matter(await readFile(join(root, 'posts', slug, `${lang}.md`), 'utf8')).data.featured_image_alt as string | undefined;
    for (const post of posts) {
      for (const lang of LANGS) {
        const alt = await altOf(post.slug, lang);
        assert.ok(alt && alt !== post.english.featured_image_alt, `${post.slug} ${lang}: the alt in another language (${alt})`);
      }
    }

    // An English alt edited (it is not in the source hash): that segment alone is sent, per language.
    const slug = posts[0]!.slug;
    const en = join(root, 'posts', slug, 'en.md');
    const before = await altOf(slug, 'es');
    await writeFile(en, (await readFile(en, 'utf8')).replace(/^featured_image_alt: .*$/m, 'featured_image_alt: "A small bowl of bread dough seen from above"'));
    const edited = await translate(root, '--lang', LANGS.join(','));
    assert.equal(edited.code, 0, edited.out);
    assert.equal(sentOf(edited.out), LANGS.length, edited.out);
    assert.notEqual(await altOf(slug, 'es'), before);
    assert.notEqual(await altOf(slug, 'es'), 'A small bowl of bread dough seen from above');

    // A Spanish file Folio wrote before the alt was a segment (no alt in it, none in its memory): the alt alone is sent.
    const other = posts[1]!;
    const dir = join(root, 'posts', other.slug);
    await writeFile(join(dir, 'es.md'), (await readFile(join(dir, 'es.md'), 'utf8')).replace(/^featured_image_alt: .*\n/m, ''));
    const file = join(dir, '.translation-memory.json');
    const memory = JSON.parse(await readFile(file, 'utf8')) as { segments: Record<string, Record<string, unknown>>; written: Record<string, [string, string][]> };
    const key = segmentKey(other.english.featured_image_alt!);
    delete memory.segments[key]!.es;
    memory.written.es = memory.written.es!.filter(([digest]) => digest !== key);
    await writeFile(file, JSON.stringify(memory));
    const upgraded = await translate(root, other.slug, '--lang', LANGS.join(','));
    assert.equal(upgraded.code, 0, upgraded.out);
    assert.equal(sentOf(upgraded.out), 1, upgraded.out);
    assert.match(upgraded.out, new RegExp(`${other.slug} es \\(apertium\\): \\d+ segments, \\d+ from memory, sent 1 `));
    assert.ok((await altOf(other.slug, 'es')) !== other.english.featured_image_alt);

    const again = await translate(root, '--lang', LANGS.join(','));
    assert.equal(sentOf(again.out), 0, again.out);
  });

  test('category and tag names missing in a language are made by the same command, once; names already there are kept', async () => {
    const file = join(root, 'taxonomies.yaml');
    const original = await readFile(file, 'utf8');
    // Spanish loses two names; French keeps its own.
    await writeFile(file, original.replace(/(  Technology:\n)    es: .*\n/, '$1').replace(/(  link rot:\n)    es: .*\n/, '$1'));
    const run = await translate(root, '--lang', 'es,fr');
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /category and tag names es \(apertium\): 2 to send/);
    assert.doesNotMatch(run.out, /category and tag names fr/, 'nothing missing in French: nothing sent');
    const names = yaml.load(await readFile(file, 'utf8')) as { categories: Record<string, Record<string, string>>; tags: Record<string, Record<string, string>> };
    for (const [kind, term] of [['categories', 'Technology'], ['tags', 'link rot']] as const) {
      const es = names[kind][term]!.es!;
      assert.ok(es && es !== term, `${term} in Spanish: ${es}`);
      assert.equal(names[kind][term]!.fr, (yaml.load(original) as typeof names)[kind][term]!.fr, 'the French name is untouched');
    }
    assert.match(await readFile(file, 'utf8'), /^# Category and tag names/, 'the file keeps its comments');
    const again = await translate(root, '--lang', 'es,fr');
    assert.doesNotMatch(again.out, /category and tag names/, again.out);
    assert.equal((await loadAll(root)).length > 0, true);
  });

  test('an engine that does not serve a language is refused before anything is sent, and other files are untouched', async () => {
    const post = join(root, 'posts', 'the-slow-web');
    const ar = await readFile(join(post, 'ar.md'), 'utf8');
    const refused = await translate(root, 'the-slow-web', '--lang', 'ar', '--provider', 'apertium');
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /apertium does not translate into ar/);
    assert.equal(await readFile(join(post, 'ar.md'), 'utf8'), ar);
  });

  test('bad input is one line, before anything is sent', async () => {
    for (const [args, message] of [
      [['--lang', 'xx'], /"xx" is not one of the 13 translated languages/],
      [['--provider', 'nope', '--lang', 'es'], /unknown translation provider "nope"/],
      [['no-such-post'], /no post or page "no-such-post"/],
      [['--provider', 'apertium', '--provider', 'deepl'], /--provider is given 2 times \(apertium, deepl\): give it once/],
      [['--bogus'], /Unknown option '--bogus'/],
    ] as [string[], RegExp][]) {
      const r = await translate(root, ...args);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, message);
      assert.equal(r.out.trim().split('\n').length, 1, r.out);
    }
    const settings = join(root, 'translation.yaml');
    const good = await readFile(settings, 'utf8');
    await writeFile(settings, `${good.replace(/^rates:\n(  .*\n)*/m, '')}rates:\n  apertium: {requests_per_minute: -1}\n`);
    const bad = await translate(root, '--lang', 'es');
    await writeFile(settings, good);
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.out, /rates\.apertium: requests_per_minute and characters_per_minute are whole numbers above 0/);
  });
});

describe('a glossary with Apertium: kept terms come back verbatim, fixed translations are checked', { skip: apertiumSkip }, () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-glossary-'));
    await cp('content', root, { recursive: true });
    for (const lang of ['es', 'fr']) await rm(join(root, 'posts', 'the-slow-web', `${lang}.md`), { force: true });
    // Apertium makes "podredumbre de enlace" of "link rot"; French "web" is wanted as "toile", which it never says of itself.
    await writeFile(join(root, 'glossary.yaml'), 'do_not_translate: [link rot, Pew Research Center]\nterms:\n  web: {fr: toile}\n');
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('es is written with the terms as written; fr with "toile" wherever the English says "web" (the term travels to Apertium as a placeholder)', async () => {
    const run = await translate(root, 'the-slow-web', '--lang', 'es,fr');
    assert.equal(run.code, 0, run.out);
    const es = matter(await readFile(join(root, 'posts', 'the-slow-web', 'es.md'), 'utf8')).content;
    assert.match(es, /\[link rot\]\(https:\/\/en\.wikipedia\.org\/wiki\/Link_rot\)/);
    assert.match(es, /\[Pew Research Center\]\(/);
    const english = matter(await readFile(join(root, 'posts', 'the-slow-web', 'en.md'), 'utf8')).content.split('\n\n');
    const fr = matter(await readFile(join(root, 'posts', 'the-slow-web', 'fr.md'), 'utf8')).content.split('\n\n');
    assert.equal(fr.length, english.length);
    // In the words, not in a link's URL (web.archive.org).
    const holding = english.flatMap((block, i) => (/\bweb\b/i.test(block.replace(/\]\([^)]*\)/g, ']')) ? [i] : []));
    assert.ok(holding.length >= 3, 'paragraphs that say "web"');
    for (const i of holding) assert.match(fr[i]!, /toile/i, `${english[i]}\n${fr[i]}`);
    const memory = await readFile(join(root, 'posts', 'the-slow-web', '.translation-memory.json'), 'utf8');
    // A segment's key names the fixed terms it holds: fr's that say "web"; kept terms are placeholders in the text, the key's other half.
    assert.match(memory, /"apertium:[^"]*\+g[\w-]{10}"/);
    const again = await translate(root, 'the-slow-web', '--lang', 'es');
    assert.equal(sentOf(again.out), 0, 'nothing changed: nothing sent');
    // A reviewer's correction, then an edited glossary: what it changes is sent again, the correction stays.
    const esFile = join(root, 'posts', 'the-slow-web', 'es.md');
    const heading = /^### .*$/m.exec(es)![0];
    await writeFile(esFile, (await readFile(esFile, 'utf8')).replace(heading, '### Lo que un lector corrigió'));
    await writeFile(join(root, 'glossary.yaml'), 'do_not_translate: [link rot]\n');
    const table = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['scripts/translations.ts', 'status', '--root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('close', () => resolve(out));
    });
    // The columns are 10 wide from the first language's (es) in the header.
    const [header, ...rows] = table.split('\n');
    const column = header!.indexOf('es');
    assert.equal(rows.find((l) => l.startsWith('the-slow-web'))!.slice(column, column + 10).trim(), 'glossary', `status says the glossary changed under it:\n${table}`);
    const edited = await translate(root, 'the-slow-web', '--lang', 'es');
    assert.equal(edited.code, 0, edited.out);
    assert.ok(sentOf(edited.out) > 0, `an edited glossary translates again: ${edited.out}`);
    assert.match(edited.out, /\(1 by a person\)/);
    assert.match(await readFile(esFile, 'utf8'), /^### Lo que un lector corrigió$/m);
  });
});
