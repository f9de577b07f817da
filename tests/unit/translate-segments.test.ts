import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Paragraph } from 'mdast';
import matter from 'gray-matter';
import { documentText, parseMarkdown, segmentDocument, type DocumentText, type SegmentOptions } from '../../src/translate/segments.ts';
import { engineKey, loadGlossary, termPattern } from '../../src/translate/glossary.ts';
import { glossaryProblem } from '../../src/translate/checks.ts';
import { markdownShape, markdownStructure as structure } from '../helpers/markdown-shape.ts';
import { pseudo } from '../helpers/pseudo-locale.ts';
import { decodeInline, encodeInline } from '../../src/translate/inline-markup.ts';
import { translationFile } from '../../src/translate/translation-file.ts';


async function demoEssays(): Promise<[string, DocumentText][]> {
  const dir = 'content/posts';
  const out: [string, DocumentText][] = [];
  for (const slug of (await readdir(dir)).sort()) {
    const { data, content } = matter(await readFile(join(dir, slug, 'en.md'), 'utf8'));
    out.push([slug, documentText(data, content)]);
  }
  return out;
}

function roundTrips(doc: DocumentText, label: string, options?: SegmentOptions) {
  const seg = segmentDocument(doc, options);
  const identity = seg.segments.map((s) => s.text);
  for (const [i, t] of identity.entries()) assert.equal(seg.problem(i, t), undefined, `${label}: segment ${i} checks against itself`);
  // Unchanged words keep the author's bytes.
  assert.deepEqual(seg.rebuild(identity), doc, `${label}: identity keeps the source`);
  // Written out again from the segments, the Markdown has the source's structure exactly.
  const rewritten = seg.rebuild(identity, { rewrite: true });
  assert.deepEqual(structure(rewritten.body), structure(doc.body), `${label}: rewritten from its segments`);
  // Every word changed: the same tree of nodes, URLs, code and HTML.
  const changed = seg.rebuild(identity.map(pseudo));
  assert.equal(markdownShape(changed.body), markdownShape(doc.body), `${label}: translated structure`);
}

test('every demo essay: segments round-trip to the source, and a translation keeps its structure', async () => {
  const essays = await demoEssays();
  assert.ok(essays.length >= 10);
  for (const [slug, doc] of essays) {
    roundTrips(doc, slug);
    const seg = segmentDocument(doc);
    assert.ok(seg.segments.length > 10, slug);
    for (const s of seg.segments) {
      assert.doesNotMatch(s.text, /https?:\/\//, `${slug}: a URL is never sent (${s.where})`);
      assert.doesNotMatch(s.text, /```/, `${slug}: code is never sent`);
    }
  }
});

/** Markdown documents with nested lists, tables, HTML, code, links with titles, images, of a small vocabulary. */
function generatedDocuments(): fc.Arbitrary<DocumentText> {
  const word = fc.constantFrom('tide', 'river', 'slow', 'web', 'the', 'a', 'of', 'Ünïcödé', '日本語', 'naïve', '42', 'x_y', 'A&B', '1 < 2');
  const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
  const inline: fc.Arbitrary<string> = fc.oneof(
    words,
    words.map((w) => `*${w}*`),
    words.map((w) => `**${w}**`),
    words.map((w) => `~~${w}~~`),
    words.map((w) => `\`${w.replace(/`/g, '')}\``),
    fc.tuple(words, fc.constantFrom('https://example.org/a_b', '/the-slow-web', '#part-2'), fc.option(words)).map(([w, url, title]) => `[${w}](${url}${title ? ` "${title}"` : ''})`),
    fc.tuple(words, fc.option(words)).map(([alt, title]) => `![${alt}](cover.jpg${title ? ` "${title}"` : ''})`),
    words.map((w) => `<abbr title="${w}">${w.split(' ')[0]}</abbr>`),
  );
  const paragraph = fc.array(inline, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(' '));
  const block = fc.oneof(
    paragraph,
    fc.tuple(fc.integer({ min: 1, max: 4 }), paragraph).map(([n, p]) => `${'#'.repeat(n)} ${p}`),
    fc.array(paragraph, { minLength: 1, maxLength: 3 }).map((items) => items.map((p) => `- ${p}\n  - nested ${p}`).join('\n')),
    fc.array(paragraph, { minLength: 1, maxLength: 3 }).map((items) => items.map((p, i) => `${i + 1}. ${p}`).join('\n')),
    paragraph.map((p) => `> ${p}\n> ${p}`),
    fc.tuple(paragraph, paragraph).map(([a, b]) => `| ${a.replace(/\|/g, '')} | head |\n| --- | --- |\n| ${b.replace(/\|/g, '')} | \`a\\|b\` |`),
    words.map((w) => `\`\`\`js\nconst x = "${w}";\n\`\`\``),
    words.map((w) => `<figure>\n<img src="a.jpg" alt="${w}">\n<figcaption>${w}</figcaption>\n</figure>`),
    paragraph.map((p) => `${p}\\\nafter a hard break`),
  );
  return fc
    .tuple(fc.array(block, { minLength: 1, maxLength: 6 }), words, fc.option(words, { nil: undefined }))
    .map(([blocks, title, alt]) => ({ title, summary: title, ...(alt === undefined ? {} : { featuredImageAlt: alt }), body: `${blocks.join('\n\n')}\n` }));
}

test('generated Markdown: nested lists, tables, HTML, code, links with titles, images', () => {
  fc.assert(
    fc.property(generatedDocuments(), (doc) => roundTrips(doc, 'generated')),
    { numRuns: 300 },
  );
});

test('glossary: do-not-translate terms are placeholders holding the term; they round-trip and come back verbatim from any engine', () => {
  const KEPT = ['river', 'A&B', 'Ünïcödé', '日本語'];
  const protect = termPattern(KEPT)!;
  // Counted in the parsed Markdown: `A&B` may be written `A\&B`.
  const count = (doc: DocumentText) => [doc.title, doc.summary ?? '', JSON.stringify(structure(doc.body))].join('\n').split(termPattern(KEPT, 'gu')!).length;
  fc.assert(
    fc.property(generatedDocuments(), (doc) => {
      roundTrips(doc, 'generated, with a glossary', { protect });
      const seg = segmentDocument(doc, { protect });
      for (const s of seg.segments) assert.doesNotMatch(s.text.replace(/<[^>]*>/g, ' '), termPattern(KEPT)!, `a kept term is never sent as words (${s.where}: ${s.text})`);
      // Every other word changed: every occurrence of a kept term is still there, as written.
      assert.equal(count(seg.rebuild(seg.segments.map((s) => pseudo(s.text)))), count(doc));
    }),
    { numRuns: 200 },
  );

  const doc = { title: 'Folio and folio', body: 'Folio keeps [Folio notes](https://example.org "Folio") and *Folio*, not Folios or folio.\n\n![Folio at work](a.jpg)\n' };
  const seg = segmentDocument(doc, { protect: termPattern(['Folio'])! });
  assert.deepEqual(
    seg.segments.map((s) => s.text),
    ['<x i="1"></x> and folio', '<x i="1"></x> keeps <a i="2"><x i="3"></x> notes</a> and <em><x i="4"></x></em>, not Folios or folio.', '<x i="1"></x> at work'],
    'whole words, case as written; in anchors, emphasis, titles and alt texts',
  );
  const fr = seg.rebuild(['<x i="1"></x> et folio', '<x i="1"></x> garde <a i="2">les notes de <x i="3"></x></a> et <em><x i="4"></x></em>, pas Folios.', '<x i="1"></x> au travail']);
  assert.deepEqual(fr, { title: 'Folio et folio', body: 'Folio garde [les notes de Folio](https://example.org "Folio") et *Folio*, pas Folios.\n\n![Folio au travail](a.jpg)\n' });
  assert.match(seg.problem(1, 'Le <a i="2">notes</a> et <em><x i="4"></x></em>.')!, /placeholders 1, 3 dropped/, 'a term the engine dropped is refused');
  assert.match(seg.problem(0, 'Folio et folio')!, /placeholder 1 dropped/, 'in a title too');
  assert.equal(segmentDocument(doc).segments[0]!.text, 'Folio and folio', 'no glossary: the text as before (the same memory keys)');
});

test('the cover alt text (featured_image_alt) is a segment after the summary; every other segment is as without it (the same memory keys)', () => {
  const doc: DocumentText = { title: 'The slow web', summary: 'Files outlast platforms.', featuredImageAlt: 'A river seen from above', body: 'A paragraph with [a link](https://example.org).\n\n![A figure](a.jpg)\n' };
  const seg = segmentDocument(doc);
  assert.deepEqual(seg.segments.map((s) => s.where.replace(/ at line \d+/, '')), ['title', 'summary', 'featured_image_alt', 'paragraph', 'image: alt']);
  assert.equal(seg.segments[2]!.text, 'A river seen from above');
  const { featuredImageAlt: _, ...without } = doc;
  assert.deepEqual(segmentDocument(without).segments.map((s) => s.text), seg.segments.filter((_, i) => i !== 2).map((s) => s.text));
  const es = seg.rebuild(seg.segments.map((s) => pseudo(s.text)));
  assert.equal(es.featuredImageAlt, pseudo('A river seen from above'));
  assert.deepEqual(seg.rebuild([]), doc, 'nothing translated: the English as it was');
  assert.match(translationFile(es, { provider: 'apertium:3.8', sourceHash: 'sha256:x' }), new RegExp(`^featured_image_alt: "${pseudo('A river seen from above')}"$`, 'm'));
  // An alt without words (a dash) is not sent, and is kept as written.
  assert.equal(segmentDocument({ ...doc, featuredImageAlt: '—' }).segments.length, seg.segments.length - 1);
});

test('glossary: fixed translations are checked in each segment that has the term', () => {
  const terms = { 'translation memory': { fr: 'mémoire de traduction', de: 'Translation Memory' } };
  assert.match(glossaryProblem(terms, 'A <em>translation memory</em> keeps segments.', 'Une <em>mémoire des traductions</em> garde les segments.', 'fr')!, /"translation memory" is "mémoire de traduction" in fr/);
  assert.equal(glossaryProblem(terms, 'Translation memory keeps segments.', 'Mémoire de traduction garde les segments.', 'fr'), undefined, 'in any case: a sentence may begin with it');
  assert.equal(glossaryProblem(terms, 'A translation memorys.', 'Rien.', 'fr'), undefined, 'whole words only');
  assert.equal(glossaryProblem(terms, 'A translation memory.', 'Una memoria.', 'es'), undefined, 'no translation given for the language: nothing to check');
});

test('glossary: the file is validated strictly, one line per problem; its digest keys the memory', async () => {
  const root = await mkdtemp(join(tmpdir(), 'folio-glossary-'));
  const file = join(root, 'glossary.yaml');
  try {
    assert.equal(await loadGlossary(root), undefined, 'no file: no glossary');
    await writeFile(file, 'do_not_translate: [Folio, Folio, " x", 3]\nterms:\n  Folio: {fr: Folio}\n  "Folio CLI": {fr: "la CLI"}\n  memory: {xx: mémoire, de: ""}\n  store: fr\nextra: 1\n');
    const problems = await loadGlossary(root).then(() => [], (e: Error) => e.message.split('\n'));
    assert.deepEqual(problems, [
      `${file}: extra: not a known setting (do_not_translate, terms)`,
      `${file}: do_not_translate[1]: "Folio" is listed twice`,
      `${file}: do_not_translate[2]: must not begin or end with a space`,
      `${file}: do_not_translate[3]: must be a term (a string)`,
      `${file}: terms.Folio: also in do_not_translate: a term is either kept as it is or translated`,
      `${file}: terms.Folio CLI: holds the do-not-translate term "Folio", which is never sent: the check could not see it`,
      `${file}: terms.memory.xx: not one of the 13 translated languages (${(await import('../../src/core/languages.ts')).TRANSLATED_CODES.join(', ')})`,
      `${file}: terms.memory.de: must be the translation (a string, not empty, no space around it)`,
      `${file}: terms.store: must map languages to translations, e.g. {fr: "...", de: "..."}`,
    ]);
    await writeFile(file, 'do_not_translate: [Folio]\nterms:\n  memory: {fr: mémoire}\n');
    const one = (await loadGlossary(root))!;
    assert.deepEqual([one.doNotTranslate, one.terms], [['Folio'], { memory: { fr: 'mémoire' } }]);
    assert.match(engineKey('apertium:3.8.3', one), /^apertium:3\.8\.3\+g[\w-]{10}$/);
    await writeFile(file, 'do_not_translate: [Folio]\nterms:\n  memory: {fr: souvenir}\n');
    assert.notEqual(engineKey('apertium:3.8.3', await loadGlossary(root)), engineKey('apertium:3.8.3', one), 'an edited glossary is another engine: it translates again');
    assert.equal(engineKey('apertium:3.8.3', undefined), 'apertium:3.8.3');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a translation that drops, doubles or invents a placeholder, or breaks a tag, is refused with the reason', () => {
  const { text, slots } = encodeInline((parseMarkdown('Read [the note](https://w3.org) and `code` now.').children[0] as Paragraph).children);
  assert.equal(text, 'Read <a i="1">the note</a> and <x i="2"></x> now.');
  const cases: [string, RegExp][] = [
    ['Lisez <a i="1">la note</a> maintenant.', /placeholder 2 dropped/],
    ['Lisez <a i="1">la note</a> <x i="2"></x><x i="2"></x>.', /appears twice/],
    ['Lisez <a i="3">la note</a> <x i="2"></x>.', /not in the source/],
    ['Lisez <a i="1">la note <x i="2"></x>.', /never closed/],
    ['Lisez <a i="1">la note</em> <x i="2"></x>.', /closes/],
  ];
  for (const [bad, reason] of cases) assert.throws(() => decodeInline(bad, slots), reason, bad);
  const rejoined = decodeInline('Lisez <a i="1">la</a> vieille <a i="1">note</a> et <x i="2"></x>.', slots);
  assert.deepEqual(rejoined.map((n) => n.type), ['text', 'link', 'text', 'inlineCode', 'text'], 'a link an engine split in two is joined');
  const ok = decodeInline('Lisez <a i="1">la note</a> et <x i="2"></x> maintenant.', slots);
  assert.deepEqual(ok.map((n) => n.type), ['text', 'link', 'text', 'inlineCode', 'text']);
  assert.equal((ok[1] as { url: string }).url, 'https://w3.org', 'the URL comes from the source, never from the engine');
});
