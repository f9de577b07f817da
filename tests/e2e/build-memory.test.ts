import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generatedBuild } from '../helpers/generated-build.ts';

// Bounded build memory (issue 38): the largest process of a clean build (the build's own, Astro's, or a
// step's: the bundle, the answers, a host target's) stays within 2 GB at 2,000 essays x 14 languages, the
// three serverless targets written as bench/scale.ts does. GNU time's "Maximum resident set size" is the
// kernel's figure for the largest of the processes it waited for; the build's own process (Astro's pages,
// the manifest) prints its own peak: it held every target's manifest and file lists too until they ran in
// processes of their own (3.4 GB at 2,524 x 14), so it is asserted on its own.
// A build of its own (about half an hour here beside other work): FOLIO_TEST_SCALE=1 runs it; the bench
// (`npm run bench:scale`) holds the larger sizes and all processes together.
const ESSAYS = 2000;
const LIMIT_MB = 2048;
const TIME = '/usr/bin/time';
const skip = process.env.FOLIO_TEST_SCALE !== '1'
  ? `FOLIO_TEST_SCALE=1 builds a ${ESSAYS} x 14 corpus (half an hour)`
  : spawnSync(TIME, ['-f', '%e', 'true']).status !== 0 ? 'GNU time is not installed (apt-get install -y time)' : false;

test(`a clean build of ${ESSAYS} essays x 14 languages: its largest process peaks within 2 GB`, { skip, timeout: 90 * 60_000 }, async () => {
  // Generous: a clean 300 x 14 build took 3 to 4 min here at a load of 26 on 2 cores.
  const { code, log } = await generatedBuild(ESSAYS, {
    args: ['--target', 'cloudflare', '--target', 'netlify', '--target', 'vercel'],
    prefix: [TIME, '-f', 'FOLIO-TIME %e %U %S %M'],
    deadlineMs: 80 * 60_000,
  });
  assert.equal(code, 0, `the build failed:\n${log.slice(-4000)}`);
  const time = /FOLIO-TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(log);
  assert.ok(time, `no figures from GNU time:\n${log.slice(-2000)}`);
  const largestMb = Number(time[4]) / 1024;
  const own = /^peak rss (\d+) MB \(build\)$/m.exec(log);
  assert.ok(own, `the build did not print its own peak:\n${log.slice(-2000)}`);
  console.log(`clean build of ${ESSAYS} x 14: ${time[1]} s wall, ${(Number(time[2]) + Number(time[3])).toFixed(1)} s CPU, largest process ${largestMb.toFixed(0)} MB, the build's own ${own[1]} MB`);
  assert.ok(Number(own[1]) <= LIMIT_MB, `the build's own process peaked at ${own[1]} MB (at most ${LIMIT_MB} MB)`);
  assert.ok(largestMb <= LIMIT_MB, `the largest process peaked at ${largestMb.toFixed(0)} MB (at most ${LIMIT_MB} MB)`);
});
