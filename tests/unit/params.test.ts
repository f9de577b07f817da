import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readContent, readList, readSearchText, readLang } from '../../src/core/params.ts';
import { FolioError } from '../../src/core/errors.ts';

const p = (q: string) => new URLSearchParams(q);
const fails = (fn: () => unknown, code: string, pattern: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof FolioError && e.code === code && pattern.test(e.message));

test('defaults: en, page 1, per_page 10, no fallback', () => {
  assert.deepEqual(readList(p('')), { lang: 'en', fallback: false, page: 1, per_page: 10 });
});

test('integers are plain decimal digits within bounds', () => {
  assert.equal(readList(p('page=7&per_page=100')).per_page, 100);
  for (const bad of ['0', '01', '1e2', '+1', '', ' 1', '1.0', '-3', '0x10', '9'.repeat(400)]) fails(() => readList(p(`page=${encodeURIComponent(bad)}`)), 'BAD_PARAMETER', /\?page=/);
  for (const bad of ['0', '101', 'ten']) fails(() => readList(p(`per_page=${bad}`)), 'BAD_PARAMETER', /\?per_page=/);
});

test('lang: case-insensitive codes, anything else is UNSUPPORTED_LANGUAGE with the list', () => {
  assert.equal(readLang(p('lang=PT-br')).lang, 'pt-br');
  assert.throws(() => readLang(p('lang=pt')), (e: unknown) => e instanceof FolioError && e.code === 'UNSUPPORTED_LANGUAGE' && (e.details.supported_languages as string[]).length === 14);
  assert.throws(() => readLang(p('lang=')), FolioError);
});

test('fallback: only en', () => {
  assert.equal(readContent(p('fallback=en')).fallback, true);
  fails(() => readContent(p('fallback=EN')), 'BAD_PARAMETER', /fallback/);
});

test('search text: q wins over query, blank is missing, 256 code points at most', () => {
  assert.equal(readSearchText(p('q=tide&query=bread')), 'tide');
  assert.equal(readSearchText(p('query=bread')), 'bread');
  fails(() => readSearchText(p('q=%20%20')), 'BAD_PARAMETER', /\?q=/);
  fails(() => readSearchText(p('')), 'BAD_PARAMETER', /\?q=/);
  assert.equal(readSearchText(p(`q=${'文'.repeat(256)}`)).length, 256);
  fails(() => readSearchText(p(`q=${'文'.repeat(257)}`)), 'BAD_PARAMETER', /256/);
  assert.equal(readSearchText(p(`q=${encodeURIComponent('😀'.repeat(256))}`)).length, 512, 'code points, not UTF-16 units');
});
