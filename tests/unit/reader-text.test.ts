import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANGUAGE_CODES, language } from '../../src/core/languages.ts';
import { MESSAGES, plural, type Plural } from '../../src/core/messages.ts';
import { snippet } from '../../src/core/snippet.ts';
import { matchedRanges } from '../../src/core/highlight.ts';
import { buildBundle } from '../../src/pipeline/bundle.ts';
import { markedSnippet } from '../../src/site/search-results.ts';
import { readerHtml } from '../../src/site/reader-html.ts';

const PLURALS = ['minutes', 'resultCount', 'pageOf', 'postCount'] as const;

test('every message with a number has an `other` form and only the plural categories its language has', () => {
  for (const lang of LANGUAGE_CODES) {
    const categories = new Set(new Intl.PluralRules(language(lang).locale).resolvedOptions().pluralCategories);
    for (const name of PLURALS) {
      const forms: Plural = MESSAGES[lang]![name];
      assert.ok(forms.other, `${lang} ${name}`);
      for (const category of Object.keys(forms)) assert.ok(categories.has(category as Intl.LDMLPluralRule), `${lang} ${name}: no category ${category}`);
    }
  }
});

test('Arabic counts take zero, one, two, few, many and other; English one and other; Russian one, few, many', () => {
  const ar = MESSAGES.ar!;
  const minutes = [1, 2, 3, 11, 100].map((n) => plural('ar', ar.minutes, n, { n }));
  assert.deepEqual(minutes, ['قراءة في دقيقة واحدة', 'قراءة في دقيقتين', 'قراءة في 3 دقائق', 'قراءة في 11 دقيقة', 'قراءة في 100 دقيقة']);
  const results = [0, 1, 2, 4].map((n) => plural('ar', ar.resultCount, n, { n, q: 'x' }));
  assert.deepEqual(results, ['لا نتائج لـ «x»', 'نتيجة واحدة لـ «x»', 'نتيجتان لـ «x»', '4 نتائج لـ «x»']);
  assert.equal(plural('en', MESSAGES.en!.resultCount, 1, { n: 1, q: 'tide' }), '1 result for “tide”');
  assert.equal(plural('en', MESSAGES.en!.resultCount, 2, { n: 2, q: 'tide' }), '2 results for “tide”');
  assert.equal(plural('en', MESSAGES.en!.minutes, 4, { n: 4 }), '4\u00a0min read');
  assert.deepEqual([1, 3, 5].map((n) => plural('ru', MESSAGES.ru!.minutes, n, { n })), ['1\u00a0минута чтения', '3\u00a0минуты чтения', '5\u00a0минут чтения']);
  assert.equal(plural('en', MESSAGES.en!.postCount, 1234, { n: 1234 }), '1,234 essays', 'numbers are written the language\'s way');
});

test('snippets keep to the block of the match: a heading never runs into the next paragraph', () => {
  const text = `${'An opening paragraph with enough words to be cut somewhere. '.repeat(4).trim()}\nThe problem\nWhat makes an archive last is not the format but the habit of copying it.`;
  assert.equal(snippet('en', text, ['problem']), 'The problem', 'a match only in a heading quotes the heading alone (no sentence cut: no ellipsis)');
  assert.equal(snippet('en', `The archive\n${text}`, ['archive']), 'What makes an archive last is not the format but the habit of copying it.', 'a match in a paragraph is preferred to one in a heading');
  const p = snippet('en', text, ['archive']);
  assert.equal(p, 'What makes an archive last is not the format but the habit of copying it.');
  assert.doesNotMatch(snippet('en', text, ['opening']), /\n|The problem/);
});

test('marked words: the words a term begins, folded, and CJK terms inside words; the rest escaped', () => {
  assert.deepEqual(matchedRanges('en', 'Tides and the tide', ['tide']), [[0, 5], [14, 18]]);
  assert.equal(markedSnippet('en', 'Café <b> cafe', 'CAFE'), '<mark>Café</mark> &lt;b&gt; <mark>cafe</mark>');
  assert.equal(markedSnippet('ar', 'الوِيب البطيء', 'الويب'), '<mark>الوِيب</mark> البطيء');
  assert.match(markedSnippet('ja', '遅いウェブについて', 'ウェブ'), /<mark>ウェブ<\/mark>/);
});

test('the attribution is filled with the site name and the address on SITE_URL', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-'));
  try {
    const site = `name: The Site\ndescription: D\nauthor: A\nurl: http://localhost:4321\nproduct:\n  title: P\n  description: d\n  format: PDF\n  price_usd: 1\n  currency: USD\n  landing_url: /p\n  download_url: /d\n`;
    await mkdir(join(dir, 'posts', 'hello'), { recursive: true });
    await writeFile(join(dir, 'site.yaml'), site);
    await writeFile(join(dir, 'posts', 'hello', 'en.md'), `---\ntitle: "Hello"\ndate: 2026-01-01T00:00:00Z\n---\n\nBody text.\n`);
    const built = await buildBundle({ contentDir: dir, outDir: join(dir, 'out'), base: '/sandbox', siteUrl: 'https://essays.example.org', cacheDir: join(dir, 'cache') });
    assert.equal(built.catalog.site.attribution, 'Source: The Site (https://essays.example.org/sandbox). Please cite and link the original essay when you quote or summarise it.');
    await writeFile(join(dir, 'site.yaml'), `${site}attribution: "From {name}, {url}"\n`);
    const own = await buildBundle({ contentDir: dir, outDir: join(dir, 'out'), base: '', siteUrl: 'https://essays.example.org', cacheDir: join(dir, 'cache') });
    assert.equal(own.catalog.site.attribution, 'From The Site, https://essays.example.org');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('post bodies on the page: outline without skipped levels, quotes per language, code untouched', () => {
  assert.equal(readerHtml('<h2>A</h2><h4>B</h4><h3>C</h3><h1>D</h1><h3>E</h3>', 'en'), '<h2>A</h2><h3>B</h3><h3>C</h3><h2>D</h2><h3>E</h3>');
  assert.equal(readerHtml('<p>She said "it\'s <em>here</em>" <code>"x"</code></p>', 'en'), '<p>She said “it’s <em>here</em>” <code>"x"</code></p>');
  assert.equal(readerHtml('<p>Er sagte "ja".</p>', 'de'), '<p>Er sagte „ja“.</p>');
  assert.equal(readerHtml('<p>Il dit "oui" !</p>', 'fr'), '<p>Il dit «\u202foui\u202f»\u202f!</p>');
  assert.equal(readerHtml('<p>彼は"はい"と言った。</p>', 'ja'), '<p>彼は「はい」と言った。</p>');
  assert.equal(readerHtml('<p>It ran 750 metres at 5 % of 240 MW.</p>', 'en'), '<p>It ran 750\u00a0metres at 5\u00a0% of 240\u00a0MW.</p>');
});
