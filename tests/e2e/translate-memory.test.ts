import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import { isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { MEMORY_FILE, segmentKey, type MemoryData } from '../../src/translate/memory.ts';
import { documentText, segmentDocument } from '../../src/translate/segments.ts';
import { sentencesOf } from '../../src/translate/sentences.ts';
import { loadGlossary } from '../../src/translate/glossary.ts';
import { englishOnlyContent, runTranslate } from '../helpers/translate-command.ts';
import { translations } from '../helpers/translations-command.ts';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.ts';

/**
 * The memory per sentence (issue 40, item 3): an English edit of one sentence sends that sentence,
 * with its paragraph as context; a similar sentence's translation is offered to a language model
 * (fuzzy match) and listed by --dry-run; a glossary edit sends only what holds the edited term; a
 * memory kept per paragraph, as Folio made it before, sends nothing on a rerun and is brought up to sentences.
 */
const apertiumSkip = isApertiumInstalled() ? false : 'Apertium not found (apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt; .ci/run installs it)';
const SLUG = 'the-slow-web';
const SENTENCE = "It is that the web's failures are so often silent.";
const EDITED = "It is that the web's failures are very often silent.";
/** The paragraph the sentence is one of five in. */
const PARAGRAPH = /^What strikes me about those figures.*$/m;
const temps: string[] = [];

/** A copy of the content with only these posts, in English only, and these settings (removed after the tests). */
async function contentCopy(posts: string[], settings: string): Promise<string> {
  const root = await englishOnlyContent('folio-translate-memory-', posts, settings);
  temps.push(root);
  return root;
}

const editSentence = async (root: string, from: string, to: string) => {
  const en = join(root, 'posts', SLUG, 'en.md');
  const text = await readFile(en, 'utf8');
  assert.ok(text.includes(from), `the English holds "${from}"`);
  await writeFile(en, text.replace(from, to));
};

/** The post's line of a run: segments sent and characters. */
const postLine = (out: string, lang: string, slug = SLUG) => {
  const m = new RegExp(`^${slug} ${lang} \\(\\w+\\): .*(?:sent|to send) (\\d+) \\((\\d+) characters\\)`, 'm').exec(out);
  return m ? { sent: Number(m[1]), chars: Number(m[2]) } : undefined;
};

after(async () => {
  for (const root of temps) await rm(root, { recursive: true, force: true });
});

describe('sentences, fuzzy matches and glossary edits (a local server speaking OpenAI\'s protocol)', () => {
  let server: OpenAIServer;
  let env: NodeJS.ProcessEnv;
  const MODEL = 'gpt-4o-mini-2024-07-18';
  before(async () => {
    server = await startOpenAIServer({ model: MODEL });
    env = { ...process.env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: server.key, FOLIO_OPENAI_MODEL: undefined };
  });
  after(() => server.close());
  const sent = (from: number) => server.requests.slice(from).filter((r) => r.answered.startsWith('200'));

  test('one sentence edited: that sentence alone is sent, with its paragraph and its old translation as context; --dry-run lists the fuzzy match', async () => {
    const root = await contentCopy([SLUG], `models: {openai: ${MODEL}}\nproviders: {de: openai}\n`);
    const first = await runTranslate(root, ['--lang', 'de'], env);
    assert.equal(first.code, 0, first.out);
    const before = matter(await readFile(join(root, 'posts', SLUG, 'de.md'), 'utf8')).content;
    const paragraphBefore = (await readFile(join(root, 'posts', SLUG, 'en.md'), 'utf8')).match(PARAGRAPH)![0];

    await editSentence(root, SENTENCE, EDITED);
    const dry = await runTranslate(root, ['--lang', 'de', '--dry-run'], env);
    assert.equal(dry.code, 0, dry.out);
    assert.deepEqual(postLine(dry.out, 'de'), { sent: 1, chars: EDITED.length }, dry.out);
    assert.match(dry.out, /the-slow-web de: paragraph at line \d+, sentence 3: fuzzy match 92 % \("It is that the web's failures are so often silent\."\)/, dry.out);

    const from = server.requests.length;
    const run = await runTranslate(root, ['--lang', 'de'], env);
    assert.equal(run.code, 0, run.out);
    assert.deepEqual(postLine(run.out, 'de'), { sent: 1, chars: EDITED.length }, run.out);
    const requests = sent(from);
    assert.deepEqual(requests.flatMap((r) => r.segments), [EDITED], 'the edited sentence alone reaches the engine');
    const user = JSON.parse(requests[0]!.body.messages.find((m) => m.role === 'user')!.content) as { context: { paragraph: string; example: { english: string; translation: string } }[] };
    assert.equal(user.context[0]!.paragraph, paragraphBefore.replace(SENTENCE, EDITED), 'the paragraph goes with it, as context');
    assert.equal(user.context[0]!.example.english, SENTENCE, 'the fuzzy match is offered as an example');
    assert.ok(before.includes(user.context[0]!.example.translation), 'with its earlier translation');
    assert.match(requests[0]!.body.messages.find((m) => m.role === 'system')!.content, /"context".*"paragraph".*"example"/s);

    // The rest of the paragraph's translation is the memory's, as it was: only the edited sentence's changed.
    const old = user.context[0]!.example.translation;
    const was = before.split('\n\n').find((p) => p.includes(old))!;
    const now = matter(await readFile(join(root, 'posts', SLUG, 'de.md'), 'utf8')).content.split('\n\n')[before.split('\n\n').indexOf(was)]!;
    const [head, tail] = [was.slice(0, was.indexOf(old)), was.slice(was.indexOf(old) + old.length)];
    assert.ok(now !== was && now.startsWith(head) && now.endsWith(tail), `the other sentences as they were:\n${was}\n${now}`);
    const again = await runTranslate(root, ['--lang', 'de'], env);
    assert.equal(postLine(again.out, 'de'), undefined, `nothing left to send: ${again.out}`);
  });

  test('a glossary entry added or edited sends only the sentences that hold its term; other posts stay available; the model is told the term', async () => {
    const root = await contentCopy([SLUG, 'small-tools'], `models: {openai: ${MODEL}}\nproviders: {de: openai}\n`);
    await writeFile(join(root, 'glossary.yaml'), 'do_not_translate: [Pew Research Center]\n');
    const first = await runTranslate(root, ['--lang', 'de'], env);
    assert.equal(first.code, 0, first.out);

    // The pseudo-locale spells words backwards: "library" comes back as "yrarbil..." and passes the check.
    for (const [entry, term] of [['library: {de: yrarbil}', /\blibrary\b/i], ['library: {de: yrarbi}', /\blibrary\b/i]] as const) {
      await writeFile(join(root, 'glossary.yaml'), `do_not_translate: [Pew Research Center]\nterms:\n  ${entry}\n`);
      const status = await translations(root, 'status', '--wide');
      const [header, ...rows] = status.stdout.split('\n');
      const de = (slug: string) => rows.find((l) => l.startsWith(slug))!.slice(header!.indexOf(' de ') + 1).split(/\s+/)[0];
      assert.equal(de('small-tools'), '✓', `a post without the term stays available:\n${status.stdout}`);
      assert.equal(de(SLUG), 'glossary', status.stdout);
      const from = server.requests.length;
      const run = await runTranslate(root, ['--lang', 'de'], env);
      assert.equal(run.code, 0, run.out);
      const english = (await readFile(join(root, 'posts', SLUG, 'en.md'), 'utf8'));
      const post = matter(english);
      const holding = segmentDocument(documentText(post.data, post.content), { protect: (await loadGlossary(root))!.protect }).segments.flatMap((s) => sentencesOf(s.text)).filter((s) => term.test(s.text)).map((s) => s.text);
      const segments = sent(from).flatMap((r) => r.segments);
      assert.ok(holding.length >= 2);
      assert.deepEqual(segments.sort(), [...holding].sort(), `only the sentences holding the term are sent: ${run.out}`);
      assert.doesNotMatch(run.out, /^small-tools de/m, 'the post without the term is not sent');
      assert.match(sent(from)[0]!.body.messages.find((m) => m.role === 'system')!.content, new RegExp(`"library" as "${entry.includes('yrarbil}') ? 'yrarbil' : 'yrarbi'}"`), 'the fixed translation is in the prompt');
      const again = await runTranslate(root, ['--lang', 'de'], env);
      assert.match(again.out, / 0 segments sent/, again.out);
    }
  });
});

describe('a memory kept per paragraph, as Folio kept it before (Apertium, the real engine)', { skip: apertiumSkip }, () => {
  test('a rerun after upgrading sends nothing; then a one-sentence edit sends that sentence: characters before and after', async () => {
    const root = await contentCopy([SLUG], 'providers: {es: apertium}\n');
    await writeFile(join(root, 'glossary.yaml'), 'do_not_translate: [Pew Research Center]\n');
    const first = await runTranslate(root, ['--lang', 'es']);
    assert.equal(first.code, 0, first.out);
    const file = join(root, 'posts', SLUG, MEMORY_FILE);
    const memory = JSON.parse(await readFile(file, 'utf8')) as MemoryData;
    const digest = (await loadGlossary(root))!.digest;
    // The memory as the paragraph-level version wrote it: one entry per segment written, each under the whole glossary's key; no sentences, no English texts, no fixed terms in the record.
    const written = new Set(memory.written.es!.map(([d]) => d));
    const label = matter(await readFile(join(root, 'posts', SLUG, 'es.md'), 'utf8')).data.provider as string;
    const old: MemoryData = {
      version: 1,
      segments: Object.fromEntries(memory.written.es!.map(([d]) => [d, { es: { machine: { [`${label}+g${digest}`]: Object.values(memory.segments[d]!.es!.machine!)[0]! } } }])),
      written: memory.written,
      glossaries: { es: { digest, keep: ['Pew Research Center'] } },
    };
    assert.ok(Object.keys(old.segments).length < Object.keys(memory.segments).length, 'the new memory has sentences besides');
    await writeFile(file, JSON.stringify(old));

    const rerun = await runTranslate(root, ['--lang', 'es']);
    assert.equal(rerun.code, 0, rerun.out);
    assert.match(rerun.out, / 0 segments sent/, rerun.out);
    const upgraded = JSON.parse(await readFile(file, 'utf8')) as MemoryData;
    assert.ok(upgraded.segments[segmentKey(SENTENCE)]?.es?.machine, 'the rerun kept the paragraph per sentence');

    const paragraph = (await readFile(join(root, 'posts', SLUG, 'en.md'), 'utf8')).match(PARAGRAPH)![0];
    await editSentence(root, SENTENCE, EDITED);
    const edit = await runTranslate(root, ['--lang', 'es']);
    assert.equal(edit.code, 0, edit.out);
    // Before sentences were kept, the paragraph went whole: paragraph.length characters.
    assert.deepEqual(postLine(edit.out, 'es'), { sent: 1, chars: EDITED.length }, `one sentence, ${EDITED.length} characters instead of the paragraph's ${paragraph.length}: ${edit.out}`);
    const es = await readFile(join(root, 'posts', SLUG, 'es.md'), 'utf8');
    assert.doesNotMatch(es, /needs_review/);
  });
});
