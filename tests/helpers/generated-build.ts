import { after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus } from '../../bench/synthetic-corpus.ts';
import { runGroup } from './process-group.ts';

/**
 * A clean build of a generated corpus (`essays` x 14 languages, bench/synthetic-corpus.ts) in a
 * folder of its own, removed after the test: `prefix` runs before the build (GNU time), `env` adds to its environment. The build
 * leads its own process group, killed at `deadlineMs` and on every outcome. Its exit code and output.
 */
export async function generatedBuild(essays: number, { args = [], prefix = [], env = {}, deadlineMs }: { args?: string[]; prefix?: string[]; env?: Record<string, string>; deadlineMs: number }) {
  const work = await mkdtemp(join(tmpdir(), 'folio-generated-'));
  after(() => rm(work, { recursive: true, force: true }));
  await writeCorpus(join(work, 'content'), essays, 'content/posts/tidal-energy/figure-1.jpg');
  const [command, ...rest] = [...prefix, process.execPath, 'scripts/build.ts', ...args];
  const { code, out: log } = await runGroup(command!, rest, deadlineMs, {
    env: { ...process.env, ...env, FOLIO_CONTENT: join(work, 'content'), FOLIO_OUT: join(work, 'dist'), FOLIO_CACHE: join(work, 'cache') },
  });
  return { code, log, dist: join(work, 'dist') };
}
