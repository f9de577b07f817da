import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryAfterMs } from '../../src/translate/retry-after.ts';

test('how long a provider asked to wait: retry-after-ms first, then Retry-After in seconds or as a date', () => {
  const now = Date.parse('2026-11-02T10:00:00Z');
  const h = (headers: Record<string, string>) => retryAfterMs(new Headers(headers), now);
  assert.equal(h({ 'retry-after-ms': '1500', 'retry-after': '9' }), 1500);
  assert.equal(h({ 'retry-after': '2' }), 2000);
  assert.equal(h({ 'retry-after': '0.5' }), 500);
  assert.equal(h({ 'retry-after': 'Mon, 02 Nov 2026 10:00:30 GMT' }), 30_000);
  assert.equal(h({ 'retry-after': 'Mon, 02 Nov 2026 09:00:00 GMT' }), 0, 'a date in the past: at once');
  for (const nothing of [{}, { 'retry-after': 'soon' }, { 'retry-after': '-3' }, { 'retry-after-ms': 'x' }] as Record<string, string>[]) assert.equal(h(nothing), undefined);
  assert.equal(retryAfterMs(undefined), undefined);
});
