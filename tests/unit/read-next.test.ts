import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readNext } from '../../src/core/read-next.ts';
import type { PostRecord } from '../../src/core/types.ts';

const term = (slug: string) => ({ slug, name: slug });
function post(slug: string, day: number, langs: string[], categories: string[] = [], tags: string[] = []): PostRecord {
  return {
    slug,
    date: new Date(Date.UTC(2026, 0, day)).toISOString(),
    author: 'A',
    featured_image: null,
    categories: categories.map(term),
    tags: tags.map(term),
    images: [],
    entries: Object.fromEntries(langs.map((l) => [l, { title: `${slug} ${l}`, page_reading_time: 4, state: 'available' as const }])),
  };
}

// Newest first, as the catalog holds them.
const posts = [
  post('f', 6, ['en', 'ar'], ['tech'], ['web']),
  post('e', 5, ['en'], ['tech'], ['web', 'slow']),
  post('d', 4, ['en', 'ar'], ['life'], []),
  post('c', 3, ['en', 'ar'], ['tech'], ['slow']),
  post('b', 2, ['en', 'ar'], ['tech'], ['web', 'slow']),
  post('a', 1, ['en', 'ar'], ['life'], ['slow']),
];
const availableIn = (p: PostRecord) => Object.keys(p.entries);
const slugs = (r: ReturnType<typeof readNext>) => ({ previous: r.previous?.slug, next: r.next?.slug, related: r.related.map((p) => p.slug) });

test('previous and next: the essays published just before and after, in the language only', () => {
  assert.deepEqual(slugs(readNext(posts, availableIn, 'd', 'en')), { previous: 'c', next: 'e', related: ['a'] });
  // e is not in Arabic: d's next there is f
  assert.equal(readNext(posts, availableIn, 'd', 'ar').next?.slug, 'f');
});

test('the newest has no next, the oldest no previous', () => {
  assert.equal(readNext(posts, availableIn, 'f', 'en').next, undefined);
  assert.equal(readNext(posts, availableIn, 'f', 'en').previous?.slug, 'e');
  assert.equal(readNext(posts, availableIn, 'a', 'en').previous, undefined);
});

test('related: most shared categories and tags first, the newer among equals, never itself, previous or next', () => {
  // b shares three terms with e, two with f and with c (its next), one with a (its previous)
  const r = readNext(posts, availableIn, 'b', 'en');
  assert.equal(r.previous?.slug, 'a');
  assert.equal(r.next?.slug, 'c');
  assert.deepEqual(r.related.map((p) => p.slug), ['e', 'f']);
  // d (life) shares with a only, which is not next to it
  assert.deepEqual(readNext(posts, availableIn, 'd', 'en').related.map((p) => p.slug), ['a']);
});

test('related: only essays available in the language, at most the limit', () => {
  const r = readNext(posts, availableIn, 'b', 'ar');
  assert.ok(!r.related.some((p) => p.slug === 'e'), 'e has no Arabic');
  assert.deepEqual(r.related.map((p) => p.slug), ['f']);
  assert.equal(readNext(posts, availableIn, 'a', 'en', 1).related.length, 1);
  assert.deepEqual(readNext(posts, availableIn, 'a', 'en', 1).related.map((p) => p.slug), ['e'], 'e, d and c share one term each: the newest first');
});

test('a post not available in the language has nothing to read next there', () => {
  assert.deepEqual(readNext(posts, availableIn, 'e', 'ar'), { related: [] });
  assert.deepEqual(readNext(posts, availableIn, 'missing', 'en'), { related: [] });
});
