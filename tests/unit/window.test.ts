import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cut, pageWindow, windowAfter } from '../../src/core/window.ts';
import { FolioError } from '../../src/core/errors.ts';

test('a page is the window of per_page items after the previous pages', () => {
  assert.deepEqual(pageWindow({ page: 3, per_page: 10 }), { offset: 20, limit: 10 });
  assert.deepEqual(cut([1, 2, 3, 4, 5], pageWindow({ page: 2, per_page: 2 })), [3, 4]);
  assert.deepEqual(cut([1, 2, 3], pageWindow({ page: 9, per_page: 2 })), []);
});

test('a cursor window takes first (default 10, 1 to 100) after an offset', () => {
  assert.deepEqual(windowAfter(0, undefined), { offset: 0, limit: 10 });
  assert.deepEqual(windowAfter(5, null), { offset: 5, limit: 10 });
  assert.deepEqual(windowAfter(7, 100), { offset: 7, limit: 100 });
  for (const bad of [0, -1, 101, 1.5]) {
    assert.throws(() => windowAfter(0, bad), (e: unknown) => e instanceof FolioError && e.code === 'BAD_PARAMETER' && /"first"/.test(e.message));
  }
});
