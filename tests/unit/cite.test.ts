import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { citation, cslItem, cslName } from '../../src/core/cite.ts';
import type { CslItem } from '../../src/core/citation-styles.ts';
import { apa, bibtex, bibtexEscape, chicago, mla } from '../../src/core/citation-styles.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';
import { ogLocale } from '../../src/site/open-graph.ts';
import type { Summary } from '../../src/core/shape.ts';

/** A blog post as a CSL item, for the styles' own published examples. */
const item = (over: Partial<CslItem>): CslItem => ({
  id: 'x',
  type: 'post-weblog',
  title: 'Title',
  author: [{ family: 'Family', given: 'Given' }],
  issued: { 'date-parts': [[2018, 9, 15]] },
  URL: 'https://example.org/x',
  language: 'en',
  'container-title': 'Blog',
  ...over,
});

const english: Summary = {
  slug: 'the-slow-web',
  title: 'The Slow Web',
  date: '2026-01-31T08:00:00Z',
  author: 'Ines Calloway',
  summary: 'On pages that last.',
  url: 'https://essays.example/the-slow-web',
  featured_image: null,
  categories: [],
  tags: [],
  language: 'en',
  is_translation: false,
  translations_available: ['fr'],
  english_url: 'https://essays.example/the-slow-web',
};
const french: Summary = {
  ...english,
  title: 'Le Web lent',
  language: 'fr',
  is_translation: true,
  url: 'https://essays.example/fr/the-slow-web',
  translations_available: ['en'],
  translation: { automated: true, provider: 'deepl:v2', source_language: 'en', target_language: 'fr', verified: false, stale: false, fallback_used: false },
};

describe('citation styles against their guides\' examples', () => {
  test('APA 7 blog post (APA Style, "Blog post references": Klymkowsky, 2018)', () => {
    const klymkowsky = item({
      title: 'Can we talk scientifically about free will?',
      author: [{ family: 'Klymkowsky', given: 'Mike' }],
      'container-title': 'Sci-Ed',
      URL: 'https://blogs.plos.org/scied/2018/09/15/can-we-talk-scientifically-about-free-will/',
    });
    assert.equal(apa(klymkowsky), 'Klymkowsky, M. (2018, September 15). Can we talk scientifically about free will? Sci-Ed. https://blogs.plos.org/scied/2018/09/15/can-we-talk-scientifically-about-free-will/');
  });

  test('MLA 9 web page in a website (MLA Handbook: Bernstein, "A List Apart"), scheme left out, month abbreviated', () => {
    const bernstein = item({
      title: '10 Tips on Writing the Living Web',
      author: [{ family: 'Bernstein', given: 'Mark' }],
      'container-title': 'A List Apart: For People Who Make Websites',
      issued: { 'date-parts': [[2002, 8, 16]] },
      URL: 'https://alistapart.com/article/writeliving',
    });
    assert.equal(mla(bernstein), 'Bernstein, Mark. “10 Tips on Writing the Living Web.” A List Apart: For People Who Make Websites, 16 Aug. 2002, alistapart.com/article/writeliving.');
    assert.match(mla(item({ issued: { 'date-parts': [[2020, 9, 1]] } })), /, 1 Sept\. 2020,/);
    assert.match(mla(item({ issued: { 'date-parts': [[2020, 6, 1]] } })), /, 1 June 2020,/);
  });

  test('Chicago 17 notes-bibliography blog post, bibliography entry (CMOS 14.208: Germany, Design Observer)', () => {
    const germany = item({
      title: 'Maira Kalman: Chaos and Dogs',
      author: [{ family: 'Germany', given: 'Lisa' }],
      'container-title': 'Design Observer',
      issued: { 'date-parts': [[2018, 6, 26]] },
      URL: 'https://designobserver.com/feature/maira-kalman-chaos-and-dogs/40044',
    });
    assert.equal(chicago(germany), 'Germany, Lisa. “Maira Kalman: Chaos and Dogs.” Design Observer, June 26, 2018. https://designobserver.com/feature/maira-kalman-chaos-and-dogs/40044.');
  });

  test('a title ending in ? or ! takes no extra period; initials of a hyphenated given name keep the hyphen', () => {
    assert.match(mla(item({ title: 'Why?' })), /“Why\?” Blog,/);
    assert.match(chicago(item({ title: 'Now!' })), /“Now!” Blog,/);
    assert.match(apa(item({ author: [{ family: 'Sartre', given: 'Jean-Paul' }] })), /^Sartre, J\.-P\. \(/);
    assert.match(apa(item({ author: [{ literal: 'Folio Collective' }] })), /^Folio Collective\. \(/);
  });
});

describe('BibTeX', () => {
  test('every character BibTeX reads as markup is escaped', () => {
    assert.equal(bibtexEscape('50% & $5 #1 a_b {x} ^ ~ \\'), '50\\% \\& \\$5 \\#1 a\\_b \\{x\\} \\textasciicircum{} \\textasciitilde{} \\textbackslash{}');
  });

  test('a @misc entry: braced title, month macro, URL verbatim, an ASCII key', () => {
    const entry = bibtex(item({ id: 'the-slow-web-fr', title: 'R&D {costs} 100%', author: [{ family: 'Müller', given: 'Ana' }], URL: 'https://x.example/a_b' }));
    assert.match(entry, /^@misc\{muller2018-the-slow-web-fr,\n/);
    assert.match(entry, /\n {2}title = \{\{R\\&D \\\{costs\\\} 100\\%\}\},\n/);
    assert.match(entry, /\n {2}author = \{Müller, Ana\},\n/);
    assert.match(entry, /\n {2}month = sep,\n/);
    assert.match(entry, /\n {2}url = \{https:\/\/x\.example\/a_b\},\n/);
    assert.ok(entry.endsWith('\n}'));
    // Braces balance: an unbalanced entry breaks the whole .bib file.
    const depth = [...entry.replace(/\\[{}]/g, '')].reduce((d, c) => d + (c === '{' ? 1 : c === '}' ? -1 : 0), 0);
    assert.equal(depth, 0);
  });
});

describe('the CSL-JSON item of a post', () => {
  test('English: post-weblog with the canonical URL, the author split, the date parts, the site as container', () => {
    assert.deepEqual(cslItem('The Long Field', english, english.title), {
      id: 'the-slow-web',
      type: 'post-weblog',
      title: 'The Slow Web',
      author: [{ family: 'Calloway', given: 'Ines' }],
      issued: { 'date-parts': [[2026, 1, 31]] },
      URL: 'https://essays.example/the-slow-web',
      language: 'en',
      'container-title': 'The Long Field',
      abstract: 'On pages that last.',
    });
  });

  test('a translation: its own URL and language, the provider as translator, the English original named', () => {
    const csl = cslItem('The Long Field', french, english.title);
    assert.equal(csl.id, 'the-slow-web-fr');
    assert.equal(csl.URL, 'https://essays.example/fr/the-slow-web');
    assert.equal(csl.language, 'fr');
    assert.deepEqual(csl.translator, [{ literal: 'DeepL v2' }], 'the engine by its name, not its id');
    assert.equal(csl['original-title'], 'The Slow Web');
    assert.deepEqual(csl['original-date'], csl.issued);
    assert.equal(csl.note, 'Machine translation (DeepL v2) of https://essays.example/the-slow-web');
    assert.deepEqual(csl.custom, { 'original-language': 'en', 'original-URL': 'https://essays.example/the-slow-web', 'machine-translation': true });
    const forms = citation('The Long Field', french, english.title);
    assert.equal(forms.apa, 'Calloway, I. (2026, January 31). Le Web lent [The Slow Web] (Machine translation by DeepL v2). The Long Field. https://essays.example/fr/the-slow-web');
    assert.equal(forms.mla, 'Calloway, Ines. “Le Web lent.” The Long Field, machine translation by DeepL v2, 31 Jan. 2026, essays.example/fr/the-slow-web.');
    assert.equal(forms.chicago, 'Calloway, Ines. “Le Web lent.” Machine translation by DeepL v2. The Long Field, January 31, 2026. https://essays.example/fr/the-slow-web.');
    assert.match(forms.bibtex, /note = \{Machine translation \(DeepL v2\) of https:\/\/essays\.example\/the-slow-web\}/);
  });

  test('BCP 47 language tags as the pages write them; a single-word author stays literal', () => {
    assert.equal(cslItem('S', { ...french, language: 'zh' }, 'T').language, 'zh-Hans');
    assert.equal(cslItem('S', { ...french, language: 'pt-br' }, 'T').language, 'pt-BR');
    assert.deepEqual(cslName('Hokusai'), { literal: 'Hokusai' });
    assert.deepEqual(cslName('Mary Ann Evans'), { family: 'Evans', given: 'Mary Ann' });
  });
});

test('og:locale is language_TERRITORY for every language', () => {
  for (const code of LANGUAGE_CODES) assert.match(ogLocale(code), /^[a-z]{2}_[A-Z]{2}$/, code);
  assert.equal(ogLocale('zh'), 'zh_CN');
  assert.equal(ogLocale('pt-br'), 'pt_BR');
});
