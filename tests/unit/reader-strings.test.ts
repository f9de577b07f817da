import { test } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '../../src/pipeline/derive/render.ts';
import { readerHtml } from '../../src/site/reader-html.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';
import { MESSAGES } from '../../src/core/messages.ts';
import { providerName } from '../../src/core/provider-names.ts';

const ctx = (lang: string) => ({ mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s.example', assets: ['clip.mp4'], lang });
const FOOTNOTED = 'A claim[^1] and another[^1].\n\n## Part\n\nText.\n\n[^1]: The source.\n';

test('footnotes are named in the language of the file: their heading and every back link', () => {
  const es = render('md', FOOTNOTED, ctx('es'));
  assert.match(es.html, /<h2 class="sr-only" id="footnote-label">Notas<\/h2>/);
  assert.match(es.html, /aria-label="Volver a la referencia 1"/);
  assert.match(es.html, /aria-label="Volver a la referencia 1-2"/);
  assert.doesNotMatch(es.html, /Footnotes|Back to reference/);
  assert.match(render('md', FOOTNOTED, ctx('en')).html, /id="footnote-label">Footnotes</);
  assert.match(render('md', FOOTNOTED, ctx('ja')).html, /id="footnote-label">脚注</);
});

test("the footnotes' heading is no section of the table of contents", () => {
  assert.deepEqual(render('md', FOOTNOTED, ctx('de')).sections.map((s) => s.text), ['Part']);
});

test('a video is followed by its address for print on the page, hidden elsewhere; the API and the text keep none', () => {
  const r = render('md', 'Watch:\n\n<video src="clip.mp4" controls></video>\n', ctx('en'));
  assert.doesNotMatch(r.html, /print-only/, 'content_html is as written');
  assert.doesNotMatch(r.text, /clip\.mp4/, 'search text and snippets do not read it');
  assert.match(readerHtml(r.html, 'en', 1, 'https://s.example'), /<video[^>]*><\/video><p class="print-only" hidden dir="ltr"><a href="https:\/\/s\.example\/media\/p\/clip\.mp4">https:\/\/s\.example\/media\/p\/clip\.mp4<\/a><\/p>/);
});

test('every language names the page strings the reader sees, none left in English', () => {
  const en = MESSAGES.en!;
  for (const lang of LANGUAGE_CODES.filter((l) => l !== 'en')) {
    const m = MESSAGES[lang]!;
    for (const key of ['footnotes', 'backToReference', 'chicago', 'unrecordedModel', 'shareEmail'] as const) {
      assert.notEqual(m[key], en[key], `${lang}.${key} is English`);
    }
  }
});

test('a provider id reads as its engine and version, the unrecorded model in the reader\'s language', () => {
  assert.equal(providerName('apertium:3.8.3', 'fr'), 'Apertium 3.8.3');
  assert.equal(providerName('deepl:v2', 'en'), 'DeepL v2');
  assert.equal(providerName('llm:unrecorded', 'en'), 'a language model whose name was not recorded');
  assert.equal(providerName('llm:unrecorded', 'es'), 'un modelo de lenguaje cuyo nombre no se registró');
  assert.equal(providerName('someone-else', 'es'), 'someone-else', 'an unknown id as written');
});
