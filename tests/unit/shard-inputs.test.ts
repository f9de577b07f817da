import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mismatch, parseSlice, shardKey, shardOf, slicePosts, type ShardInputs, type ShardRecord } from '../../src/pipeline/reuse/shard-inputs.ts';

const slugs = Array.from({ length: 300 }, (_, i) => `essay-${i}`);
const inputs = (posts: Record<string, string> = Object.fromEntries(slugs.map((s) => [s, `d-${s}`])), settings: Record<string, string> = { SITE_URL: '' }): ShardInputs => ({
  code: 'code',
  settings,
  roots: { main: { shared: 'shared', posts }, sandbox: { shared: 's', posts: { hello: 'h' } } },
});
const shard = (k: number, n: number, made = inputs()): { dir: string; record: ShardRecord } => ({ dir: `s${k}`, record: { slice: { k, n }, key: shardKey(made, { k, n }), inputs: made, made: '' } });

test('--shard takes K/N with 1 <= K <= N', () => {
  assert.deepEqual(parseSlice('2/3'), { k: 2, n: 3 });
  for (const bad of ['0/3', '4/3', '3', '1/0', 'a/b', '1/3/1']) assert.equal(parseSlice(bad), undefined, bad);
});

test('a post\'s shard is stable and the shards are of a size', () => {
  const counts = [0, 0, 0];
  for (const slug of slugs) counts[shardOf('main', slug, 3) - 1]!++;
  assert.ok(counts.every((c) => c > 70 && c < 130), `300 posts in 3 shards: ${counts}`);
  assert.equal(shardOf('main', 'essay-7', 3), shardOf('main', 'essay-7', 3));
  const all = Object.values(slicePosts(inputs(), { k: 1, n: 3 })).flat().length + Object.values(slicePosts(inputs(), { k: 2, n: 3 })).flat().length + Object.values(slicePosts(inputs(), { k: 3, n: 3 })).flat().length;
  assert.equal(all, 301, 'every post of every root in exactly one shard');
});

test('a shard\'s key changes with its own posts, not with another shard\'s', () => {
  const mine = slugs.find((s) => shardOf('main', s, 3) === 1)!;
  const other = slugs.find((s) => shardOf('main', s, 3) === 2)!;
  const edited = (slug: string) => inputs({ ...inputs().roots.main!.posts, [slug]: 'edited' });
  assert.notEqual(shardKey(edited(mine), { k: 1, n: 3 }), shardKey(inputs(), { k: 1, n: 3 }));
  assert.equal(shardKey(edited(other), { k: 1, n: 3 }), shardKey(inputs(), { k: 1, n: 3 }));
  assert.notEqual(shardKey(inputs(undefined, { SITE_URL: 'https://x' }), { k: 1, n: 3 }), shardKey(inputs(), { k: 1, n: 3 }));
});

test('a merge names why its shards do not fit the content here', () => {
  const now = inputs();
  assert.equal(mismatch([shard(1, 2), shard(2, 2)], now), undefined);
  assert.equal(mismatch([shard(1, 2), shard(2, 3)], now), 'shard 2/3 (s2) is one of 3 shards, shard 1/2 (s1) one of 2');
  assert.equal(mismatch([shard(1, 3), shard(3, 3)], now), 'shard 2/3 missing: give all 3');
  assert.equal(mismatch([shard(1, 2), shard(2, 2), shard(2, 2)], now), 'shard 2/2 given twice');
  assert.equal(mismatch([shard(1, 1, inputs(undefined, { SITE_URL: 'https://a' }))], now), 'shard 1/1 (s1) was built with SITE_URL="https://a", this merge has SITE_URL=""');
  assert.match(mismatch([shard(1, 1, { ...now, code: 'other' })], now)!, /^shard 1\/1 \(s1\) was built by other code/);
  assert.match(mismatch([shard(1, 1, { ...now, roots: { ...now.roots, main: { ...now.roots.main!, shared: 'x' } } })], now)!, /other main site files/);
  const { 'essay-3': _gone, ...fewer } = now.roots.main!.posts;
  assert.equal(mismatch([shard(1, 1, inputs(fewer))], now), 'shard 1/1 (s1) lacks the main post essay-3 (added since it was built)');
  assert.equal(mismatch([shard(1, 1)], inputs(fewer)), 'shard 1/1 (s1) holds the main post essay-3, which is no longer here');
});
