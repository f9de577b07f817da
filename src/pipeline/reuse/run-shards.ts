import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sliceDir } from './shard-inputs.ts';
import { stepEnv } from '../malloc-arenas.ts';

/** `npm run build` as a child process with these arguments; its output lines go out prefixed. */
function build(args: string[], prefix: string, children: Set<ChildProcess>): Promise<number> {
  const child = spawn(process.execPath, ['scripts/build.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: stepEnv() });
  children.add(child);
  createInterface({ input: child.stdout! }).on('line', (line) => console.log(`${prefix}${line}`));
  createInterface({ input: child.stderr! }).on('line', (line) => console.error(`${prefix}${line}`));
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code ?? 1);
    });
  });
}

/**
 * The local runner of a sharded build (`npm run build -- --shards N`): the N shards as processes
 * (`jobs` at a time, all by default) into `<parent>/<k>-of-<n>`, then the merge with the other
 * arguments (`--target`, `--timings`…). A shard that fails stops the others; the exit code is the
 * first failure's, else the merge's. What a CI matrix does with one job per shard, on one machine.
 */
export async function runShards(n: number, parent: string, args: string[], jobs = n): Promise<number> {
  const started = performance.now();
  const children = new Set<ChildProcess>();
  const shardArgs = args.filter((a) => a === '--verbose' || a === '--timings');
  const dirs = Array.from({ length: n }, (_, i) => sliceDir(parent, { k: i + 1, n }));
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < n && !failed) {
      const k = ++next;
      const code = await build(['--shard', `${k}/${n}`, '--out', dirs[k - 1]!, ...shardArgs], `[shard ${k}/${n}] `, children);
      if (code !== 0 && !failed) {
        failed = code;
        for (const child of children) child.kill();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, n) }, worker));
  if (failed) {
    console.error(`sharded build failed: a shard exited ${failed}; nothing was published`);
    return failed;
  }
  console.log(`${n} shards done in ${((performance.now() - started) / 1000).toFixed(1)} s; merging`);
  return build(['--merge', ...dirs, ...args], '', children);
}
