import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestedTooDeep } from '../../src/core/json-depth.ts';
import { JSON_DEPTH_MAX } from '../../src/core/limits.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const nested = (levels: number, open = '[', close = ']') => `${open.repeat(levels)}${close.repeat(levels)}`;

test('nesting is counted over arrays and objects, up to JSON_DEPTH_MAX and not one level more', () => {
  assert.equal(nestedTooDeep(bytes(nested(JSON_DEPTH_MAX))), false);
  assert.equal(nestedTooDeep(bytes(nested(JSON_DEPTH_MAX + 1))), true);
  assert.equal(nestedTooDeep(bytes(`${'{"a":'.repeat(JSON_DEPTH_MAX + 1)}1${'}'.repeat(JSON_DEPTH_MAX + 1)}`)), true);
  // Siblings do not add up: depth is what is open at once.
  assert.equal(nestedTooDeep(bytes(`[${Array(200).fill(nested(10)).join(',')}]`)), false);
});

test('brackets inside strings, escaped quotes included, and in other scripts do not nest', () => {
  assert.equal(nestedTooDeep(bytes(JSON.stringify({ s: '['.repeat(500), t: 'a\\"[[[[' }))), false);
  assert.equal(nestedTooDeep(bytes(JSON.stringify({ s: '"\\'.repeat(100) + '['.repeat(100) }))), false);
  assert.equal(nestedTooDeep(bytes(JSON.stringify({ s: 'закваска 墨卡托投影 تعفن' }))), false);
  // Unfinished or malformed: still refused when it opens too deep, before any parser sees it.
  assert.equal(nestedTooDeep(bytes('['.repeat(20_000))), true);
});
