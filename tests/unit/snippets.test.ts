import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snippet } from '../../src/core/snippet.ts';
import { fold, tokens } from '../../src/search/encoders.ts';
import { postTexts } from '../helpers/post-texts.ts';

/** Chinese and Japanese: the index matches a word inside a longer segmented word, so a word is there when its characters are. */
const INSIDE_WORDS = new Set(['zh', 'ja']);
const ELLIPSIS = '…';

/**
 * Whether `word` (a token, folded) stands whole in the snippet: its passage is found in the text
 * and, with one character of the text on each side, tokenises to a list holding the word (a word
 * cut at the snippet's edge would run on into that character and be another token).
 */
function holdsWhole(lang: string, text: string, quoted: string, word: string): boolean {
  const passage = quoted.slice(quoted.startsWith(ELLIPSIS) ? 1 : 0, quoted.endsWith(ELLIPSIS) ? -1 : undefined);
  const at = text.indexOf(passage);
  if (at < 0) return false;
  if (INSIDE_WORDS.has(lang)) return fold(lang, passage).includes(word);
  return tokens(lang, text.slice(Math.max(0, at - 1), at + passage.length + 1)).includes(word);
}

/**
 * Every distinct word of every post in every language of the demo corpus, searched alone: the
 * snippet the search gives that post (the core function every surface uses, with the query's
 * tokens as terms) shows the word whole. The search drops no stop words, so none are skipped. Skipped
 * by design: a Chinese or Japanese word the segmenter cuts otherwise when it stands alone (the query
 * is then its parts, each matched on its own, and any of them may be the one quoted).
 */
test('a snippet shows the searched word whole, for every word of every post in every language', async () => {
  const failures: string[] = [];
  let cases = 0;
  for (const { slug, lang, text } of await postTexts('content')) {
    for (const word of new Set(tokens(lang, text))) {
      const terms = tokens(lang, word);
      if (terms.length !== 1 || terms[0] !== word) continue;
      cases++;
      const quoted = snippet(lang, text, terms);
      if (!holdsWhole(lang, text, quoted, word)) failures.push(`${slug} ${lang} "${word}": ${quoted}`);
    }
  }
  assert.ok(cases > 30_000, `${cases} cases`);
  assert.equal(failures.length, 0, `${failures.length} of ${cases} snippets lack their word, as:\n${failures.slice(0, 10).join('\n')}`);
});

const filler = (n: number) => 'Some words of a long paragraph that says little. '.repeat(n).trim();

test('the word itself is quoted before a word it is inside, and before a longer word it begins', () => {
  const text = `${filler(3)} The city is mostly illegible from a car window.\n${filler(2)}\n${filler(3)} A legible street is one you can read on foot.`;
  assert.match(snippet('en', text, ['legible']), /A legible street/);
  const forms = `${filler(2)} Gardens everywhere.\n${filler(4)} She kept a garden.\n`;
  assert.match(snippet('en', forms, ['garden']), /kept a garden\./);
  assert.match(snippet('en', `${filler(4)} Gardening is slow.`, ['garden']), /Gardening/, 'a longer word the term begins when the word itself is absent');
  assert.match(snippet('de', `${filler(3)} Das größte Haus.\n${filler(3)} Es ist groß.`, ['gross']), /ist groß\./, 'ß folds to ss, word edges kept');
});

test('a match at the end of a long block is inside the snippet, not cut off', () => {
  const text = `${filler(8)} You cannot compress a friendship or a garden.\n${filler(4)}`;
  const s = snippet('en', text, ['garden']);
  assert.match(s, /or a garden\.$/);
});

test('an ellipsis marks a sentence cut, not a sentence end or a block left out', () => {
  const text = `${filler(4)}\nIt is a way of reading, and the city is a text that is mostly illegible from a car window.\n${filler(4)}`;
  assert.equal(snippet('en', text, ['window']), 'It is a way of reading, and the city is a text that is mostly illegible from a car window.');
  const sentence = `${'Word '.repeat(39)}ends.`;
  assert.equal(snippet('en', `${filler(4)}\n${sentence} ${filler(4)}`, ['word']), sentence, 'cut on a sentence end');
  const mid = snippet('en', `${'alpha '.repeat(80)}the harbour wall ${'omega '.repeat(80)}`.trim(), ['harbour']);
  assert.ok(mid.startsWith('…') && mid.endsWith('…'), 'cut mid-sentence at both ends');
  assert.doesNotMatch(mid, /[.!?]…$/);
});
