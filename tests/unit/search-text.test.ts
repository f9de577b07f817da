import { test } from 'node:test';
import fc from 'fast-check';
import { LANGUAGE_CODES, language } from '../../src/core/languages.ts';
import assert from 'node:assert/strict';
import { fold, tokens } from '../../src/search/encoders.ts';
import { detectLanguage } from '../../src/core/detect-language.ts';
import { snippet } from '../../src/core/snippet.ts';

test('folding per script', () => {
  assert.equal(fold('fr', 'Café ÉTÉ'), 'cafe ete');
  assert.equal(fold('de', 'Straße'), 'strasse');
  assert.equal(fold('tr', 'İSTANBUL ışık'), 'istanbul isik');
  assert.equal(fold('vi', 'Thủy Triều đó'), 'thuy trieu do');
  assert.equal(fold('ru', 'Ёлка'), 'елка');
  assert.equal(fold('ar', 'المَدِينَةُ أحمد'), 'المدينه احمد');
  assert.equal(fold('ja', 'ガイド'), 'ガイド', 'voicing marks stay');
  assert.equal(fold('hi', 'पैदल'), 'पैदल');
});

test('tokens: Devanagari words stay whole, CJK is segmented, Korean splits on spaces', () => {
  assert.deepEqual(tokens('hi', 'शहर में पैदल चलना।'), ['शहर', 'में', 'पैदल', 'चलना']);
  assert.ok(tokens('zh', '慢速网络是一种选择').length > 2);
  assert.deepEqual(tokens('ko', '도시를 걷는 일'), ['도시를', '걷는', '일']);
});

test('query language detection', () => {
  const cases: [string, string][] = [
    ['what is the slow web', 'en'], ['¿qué es la marea?', 'es'], ['pourquoi le pain', 'fr'], ['wie funktioniert das', 'de'],
    ['o que é a camada de valor', 'pt-br'], ['apa itu perhatian', 'id'], ['yavaş web nedir', 'tr'], ['thủy triều là gì', 'vi'],
    ['что такое внимание', 'ru'], ['ما هو الويب', 'ar'], ['ध्यान क्या है', 'hi'], ['什么是慢网络', 'zh'], ['アーカイブとは', 'ja'], ['도시 걷기', 'ko'],
  ];
  for (const [q, lang] of cases) assert.equal(detectLanguage(q), lang, q);
});

test('snippets: short texts whole, long texts cut around the match with ellipses', () => {
  assert.equal(snippet('en', 'Short text.', ['text']), 'Short text.');
  const long = `${'alpha '.repeat(80)}the harbour wall ${'omega '.repeat(80)}`.trim();
  const s = snippet('en', long, ['harbour']);
  assert.ok(s.startsWith('…') && s.endsWith('…'));
  assert.ok(s.includes('harbour'));
  assert.ok(!/…\S*lph…/.test(s) && /^…alpha /.test(s), 'cut between words');
  const zh = snippet('zh', `${'很多文字'.repeat(40)}慢速网络${'更多内容'.repeat(40)}`, ['网络']);
  assert.ok(zh.includes('网络') && zh.startsWith('…') && zh.endsWith('…'));
  const start = snippet('en', `harbour ${'x '.repeat(200)}`, ['harbour']);
  assert.ok(start.startsWith('harbour') && start.endsWith('…'), 'no leading ellipsis when the match is at the start');
});

test('ASCII text folds as the full path folds it, in every language (the fast path changes no token)', () => {
  // The full path, for text that cannot take the fast path: an accent added and taken off again.
  const full = (lang: string, text: string) => fold(lang, `${text}é`).slice(0, -1);
  fc.assert(
    fc.property(fc.constantFrom(...LANGUAGE_CODES), fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (lang, text) => {
      assert.equal(fold(lang, text), full(lang, text));
    }),
    { numRuns: 3000 },
  );
  assert.equal(fold('tr', 'ISTANBUL Izmir'), 'istanbul izmir');
});

test("every language but Turkish lowers text as its own locale does (fold lowers without one)", () => {
  const letters = fc.string({ unit: fc.oneof(fc.integer({ min: 0x41, max: 0x24f }), fc.integer({ min: 0x370, max: 0x52f }), fc.integer({ min: 0x1e00, max: 0x1fff })).map((c) => String.fromCharCode(c)), maxLength: 40 });
  fc.assert(
    fc.property(fc.constantFrom(...LANGUAGE_CODES.filter((l) => l !== 'tr')), letters, (lang, text) => {
      assert.equal(text.toLowerCase(), text.toLocaleLowerCase(language(lang).locale), lang);
    }),
    { numRuns: 3000 },
  );
});
