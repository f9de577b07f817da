import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSlice, PAGES_SLICE_PAGES, sliceCount, slicePagesSetting } from '../../src/site/page-slice.ts';

test('the pages are cut into slices of at most the size, in order, each page in exactly one', () => {
  const pages = Array.from({ length: 23 }, (_, i) => `/essay-${i}.html`);
  const slices = [0, 1, 2].map((k) => pageSlice(pages, 10, k));
  assert.deepEqual(slices.map((s) => s.pages.length), [10, 10, 3]);
  assert.deepEqual(slices.flatMap((s) => s.pages), pages);
  assert.ok(slices.every((s) => s.count === 3));
  assert.throws(() => pageSlice(pages, 10, 3), /page slice 3 of 3 does not exist/);
  assert.throws(() => pageSlice(pages, 10, -1), /page slice -1 of 3 does not exist/);
});

test('no page to render (every page taken from the live build) is still one slice, which renders nothing', () => {
  assert.equal(sliceCount(0, 10), 1);
  assert.deepEqual(pageSlice([], 10, 0), { pages: [], count: 1 });
  assert.equal(sliceCount(10, 10), 1);
  assert.equal(sliceCount(11, 10), 2);
});

test('FOLIO_PAGES_SLICE takes a positive integer; unset is the default; anything else is refused in one line', () => {
  assert.equal(slicePagesSetting(undefined), PAGES_SLICE_PAGES);
  assert.equal(slicePagesSetting(''), PAGES_SLICE_PAGES);
  assert.equal(slicePagesSetting('250'), 250);
  for (const bad of ['0', '-3', '1.5', 'many', '10 ']) assert.throws(() => slicePagesSetting(bad), /^Error: FOLIO_PAGES_SLICE takes the number of pages/);
});
