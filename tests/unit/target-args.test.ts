import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildArgs } from '../../src/pipeline/targets/target-args.ts';

// `npm run build`'s --listen and --upstream belong to the --target before them (issue 41).
const args = (line: string) => buildArgs(line.split(' ').filter(Boolean));

test('each front keeps its own --listen and --upstream', () => {
  const { targets, options } = args('--target nginx --listen 127.0.0.1:8081 --upstream 127.0.0.1:4400 --target caddy --listen 127.0.0.1:8082');
  assert.deepEqual(targets, ['nginx', 'caddy']);
  assert.deepEqual(options, { nginx: { listen: '127.0.0.1:8081', upstream: '127.0.0.1:4400' }, caddy: { listen: '127.0.0.1:8082' } });
});

test('settings before any --target, or after --target all, go to every named target that takes them', () => {
  assert.deepEqual(args('--listen 127.0.0.1:9000 --target static --target nginx').options, { static: { listen: '127.0.0.1:9000' }, nginx: { listen: '127.0.0.1:9000' } });
  assert.deepEqual(args('--target all --upstream 127.0.0.1:4400 --target caddy --upstream 127.0.0.1:4500').options, { nginx: { upstream: '127.0.0.1:4400' }, caddy: { upstream: '127.0.0.1:4500' } });
  // A target's own setting wins over one given for all.
  assert.deepEqual(args('--listen 127.0.0.1:1 --target nginx --listen 127.0.0.1:2 --target caddy').options, { nginx: { listen: '127.0.0.1:2' }, caddy: { listen: '127.0.0.1:1' } });
});

test('no target, no settings: node alone', () => {
  assert.deepEqual(args('--timings'), { targets: ['node'], options: {}, verbose: false, timings: true, drafts: false, shard: undefined, out: undefined, merge: false, shards: undefined, jobs: undefined, positionals: [] });
});

test('a setting no named target takes is refused with the fix, never ignored', () => {
  assert.throws(() => args('--target static --upstream 127.0.0.1:4400'), /--upstream 127\.0\.0\.1:4400 follows --target static, which takes no --upstream: it is for --target nginx or caddy/);
  assert.throws(() => args('--target cloudflare --listen 127.0.0.1:1'), /follows --target cloudflare, which takes no --listen/);
  assert.throws(() => args('--listen 127.0.0.1:1'), /--listen is for --target static or nginx or caddy, and none is named/);
  assert.throws(() => args('--target nginx --listen 127.0.0.1:1 --listen 127.0.0.1:2'), /--listen is given twice for --target nginx/);
  assert.throws(() => args('--target apache'), /unknown --target apache/);
});
