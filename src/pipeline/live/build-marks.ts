import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../../fs/process-alive.ts';

/**
 * What a build's folder says of it, for the pruning of dist/builds: which process is making it (until
 * it goes live), and when it went live. A folder with neither is a build that died.
 */
const RUNNING_FILE = 'running.pid';
const WENT_LIVE_FILE = 'went-live';

export const markRunning = (dir: string) => writeFile(join(dir, RUNNING_FILE), String(process.pid));

/** Whether the process that makes the build in `dir` is alive (a killed build's is not). */
export async function isRunning(dir: string): Promise<boolean> {
  return processAlive(Number(await readFile(join(dir, RUNNING_FILE), 'utf8').catch(() => '')));
}

/** Done running: the build is live from `at` on (its pid no longer names it, so a reused pid cannot keep it). */
export async function markLive(dir: string, at = Date.now()): Promise<void> {
  await writeFile(join(dir, WENT_LIVE_FILE), String(at));
  await rm(join(dir, RUNNING_FILE), { force: true });
}

/** When the build went live, or undefined if it never did. */
export async function wentLiveAt(dir: string): Promise<number | undefined> {
  const at = Number(await readFile(join(dir, WENT_LIVE_FILE), 'utf8').catch(() => ''));
  return at > 0 ? at : undefined;
}
