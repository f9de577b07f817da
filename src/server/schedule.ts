import { spawn, type ChildProcess } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSchedule, type NextPost } from '../pipeline/live/schedule.ts';

/** setTimeout's longest wait; a later time is waited for in steps. */
const MAX_WAIT_MS = 2 ** 31 - 1;
const PROJECT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm start` publishes scheduled posts by itself: at the live build's next scheduled time it runs
 * the same build (`node scripts/build.ts`, this process's environment), which goes live by the
 * usual atomic switch of `current` that the workers follow (live-build.ts): no restart. A build that
 * fails is one line in the log and the live build stays. The link is polled, so a build published
 * by hand meanwhile brings its own schedule.
 */
export function scheduleBuilds(out: string, opts: { log: (m: string) => void; error: (m: string) => void; intervalMs?: number }) {
  const link = join(out, 'current');
  let dir: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let build: ChildProcess | undefined;

  const run = (next: NextPost) => {
    const started = performance.now();
    build = spawn(process.execPath, ['scripts/build.ts'], { cwd: PROJECT, env: { ...process.env, FOLIO_OUT: resolve(out) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    build.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    build.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    build.on('exit', (code, signal) => {
      build = undefined;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (code === 0) return opts.log(`scheduled: ${next.slug} is due; built in ${seconds} s (${/live: .*/.exec(output)?.[0] ?? 'no change'})`);
      opts.error(`scheduled: the build for ${next.slug} (due ${next.date}) failed (exit ${code ?? signal}): ${failureCause(output)}; the live build stays`);
    });
  };

  const arm = (next: NextPost | undefined) => {
    clearTimeout(timer);
    if (!next) return;
    const wait = Date.parse(next.date) - Date.now();
    timer = setTimeout(() => (wait > MAX_WAIT_MS ? arm(next) : run(next)), Math.min(Math.max(wait, 0), MAX_WAIT_MS));
    timer.unref();
  };

  /** The live build's schedule, read again whenever `current` points elsewhere. */
  const follow = async () => {
    const now = await readlink(link).then((target) => resolve(out, target), () => undefined);
    if (!now || now === dir || build) return;
    dir = now;
    arm((await readSchedule(now).catch(() => ({}) as { next?: NextPost })).next);
  };
  void follow();
  const poll = setInterval(() => void follow(), opts.intervalMs ?? 1000);
  poll.unref();
  // The build started here ends with the server (it would publish into a folder the operator may be removing).
  process.once('exit', () => build?.kill());
  return {
    stop() {
      clearInterval(poll);
      clearTimeout(timer);
      build?.kill();
    },
  };
}

/**
 * Why a build failed, from its output: its content errors (`file:line: ...`, the first three and how
 * many more), else its "build failed:" line, else its last line.
 */
export function failureCause(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const content = lines.filter((l) => /^\S+?:\d+: /.test(l) || /^\S+: (holds|is|has) /.test(l));
  if (content.length > 0) return content.slice(0, 3).join(' | ') + (content.length > 3 ? ` (and ${content.length - 3} more)` : '');
  return (lines.find((l) => l.startsWith('build failed: ')) ?? lines.at(-1) ?? '').replace(/^build failed: /, '');
}
