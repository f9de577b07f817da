import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate } from '../../src/core/negotiate.ts';
import { FORMATS } from '../../src/core/formats.ts';

const offers = [FORMATS.html, FORMATS.json, FORMATS.markdown];
const pick = (accept: string | null) => negotiate(accept, offers).name;

test('no Accept, */* and browsers get the first offer', () => {
  assert.equal(pick(null), 'html');
  assert.equal(pick('*/*'), 'html');
  assert.equal(pick('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8'), 'html');
});

test('explicit types, quality values and specificity', () => {
  assert.equal(pick('application/json'), 'json');
  assert.equal(pick('text/markdown'), 'markdown');
  assert.equal(pick('application/json, text/plain, */*'), 'json');
  assert.equal(pick('text/html;q=0.1, application/json;q=0.5'), 'json');
  assert.equal(pick('text/*;q=0.9, application/json;q=0.8'), 'html');
  assert.equal(pick('text/markdown;q=1, text/html;q=0.9'), 'markdown');
  assert.equal(pick('application/json;q=0'), 'html', 'q=0 means not acceptable');
  assert.equal(pick('image/png'), 'html', 'nothing acceptable falls back to the default');
  assert.equal(pick('garbage;;,/,'), 'html');
});
