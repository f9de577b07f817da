import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

/**
 * The processes tests start (servers, previews, fronts, stores): each the leader of a process group of
 * its own, so that what it starts in turn (wrangler's workerd, nginx's workers, PostgreSQL's backends)
 * is stopped with it, on every outcome: a clean stop, a start-up that failed or timed out, or the test
 * process ending without its `after` hooks (those still running are killed as it exits).
 * What a test process killed with SIGKILL leaves behind, the test runner (tests/run.ts) kills: every
 * process it starts carries its FOLIO_TEST_JOB mark in its environment.
 */
const live = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of live) signalGroup(child, 'SIGKILL');
});

/** `spawn` with the child leading its own process group, killed with its group if this process exits first. */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  // The group may outlive its leader (an orphaned worker): whatever is left of it goes with the leader.
  child.once('exit', () => {
    live.delete(child);
    signalGroup(child, 'SIGKILL');
  });
  child.once('error', () => live.delete(child));
  return child;
}

/** Sends `signal` to the child's whole process group (nothing when it is already gone). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group has ended.
  }
}

/**
 * Runs a command to its end as a process group (spawnGroup): its exit code and its output (stdout and
 * stderr as they came), the group killed at `deadlineMs` (then the code is null) and once it exits.
 */
export async function runGroup(command: string, args: readonly string[], deadlineMs: number, options: SpawnOptions = {}): Promise<{ code: number | null; out: string }> {
  const child = spawnGroup(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = setTimeout(() => signalGroup(child, 'SIGKILL'), deadlineMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve)).finally(() => clearTimeout(deadline));
  return { code, out };
}

/**
 * Stops the child: `signal` to it (the leader only: PostgreSQL's SIGINT is its fast shutdown, which a
 * backend would read as a query cancel), then, if it is still there after `graceMs`, SIGKILL to its
 * group; its group is killed when it exits either way. Resolves once it has exited.
 */
export async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    signalGroup(child, 'SIGKILL');
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * How long a process may take to start: `baseMs` (FOLIO_TEST_START_TIMEOUT seconds replaces it), times
 * the machine's load per core (1-minute load average) when that is above 1, at most 5 times: a Workers
 * preview starts in 5 s on a quiet 2-core machine and took over 20 s at a load of 20.
 */
export function startupDeadline(baseMs: number): number {
  const base = process.env.FOLIO_TEST_START_TIMEOUT ? Number(process.env.FOLIO_TEST_START_TIMEOUT) * 1000 : baseMs;
  const load = loadavg()[0]! / availableParallelism();
  return Math.round(base * Math.min(5, Math.max(1, load)));
}
