import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Paragraph } from 'mdast';
import matter from 'gray-matter';
import { parseMarkdown, segmentDocument, type DocumentText } from '../../src/translate/segments.ts';
import { markdownShape, markdownStructure as structure } from '../helpers/markdown-shape.ts';
import { pseudo } from '../helpers/pseudo-locale.ts';
import { decodeInline, encodeInline } from '../../src/translate/inline-markup.ts';


async function demoEssays(): Promise<[string, DocumentText][]> {
  const dir = 'content/posts';
  const out: [string, DocumentText][] = [];
  for (const slug of (await readdir(dir)).sort()) {
    const { data, content } = matter(await readFile(join(dir, slug, 'en.md'), 'utf8'));
    out.push([slug, { title: String(data.title), summary: data.summary === undefined ? undefined : String(data.summary), body: content }]);
  }
  return out;
}

function roundTrips(doc: DocumentText, label: string) {
  const seg = segmentDocument(doc);
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

test('generated Markdown: nested lists, tables, HTML, code, links with titles, images', () => {
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
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), words, (blocks, title) => {
      roundTrips({ title, summary: title, body: `${blocks.join('\n\n')}\n` }, 'generated');
    }),
    { numRuns: 300 },
  );
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
