import { readdirSync, readFileSync } from 'node:fs';

/**
 * Processes found by a mark in their environment, as Jenkins finds a build's: a process a test
 * starts inherits its test's FOLIO_TEST_JOB, even one that left the test's process group (Playwright
 * starts Chromium in a session of its own) or outlived its parent (orphans are re-parented to init,
 * out of reach of a walk down the process tree). The mark is a path of ids: a run started inside a
 * job (tests/e2e/runner.test.ts) adds its own, so the outer run's mark still finds its processes.
 */
export const MARK = 'FOLIO_TEST_JOB';

/** The mark for a job with id `id` of a run whose own environment has `inherited` (undefined outside a run). */
export const markFor = (inherited: string | undefined, id: string) => `${inherited ?? ''}/${id}`;

/** The live processes (pid and command line) whose FOLIO_TEST_JOB holds `id`, but never this process. */
export function markedProcesses(id: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    const mark = environ.split('\0').find((v) => v.startsWith(`${MARK}=`));
    if (!mark?.slice(MARK.length + 1).split('/').includes(id) || isZombie(pid)) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      // gone meanwhile
    }
    found.push({ pid, command });
  }
  return found;
}

/**
 * Kills (SIGKILL) the process group `group` leads and every process marked `id`, again while any is
 * left (one may start another as it is killed). Returns those found by their mark.
 */
export function killMarked(group: number | undefined, id: string): { pid: number; command: string }[] {
  const killed = new Map<number, string>();
  for (let round = 0; round < 5; round++) {
    if (group !== undefined) signal(-group);
    const left = markedProcesses(id);
    if (!left.length) break;
    for (const p of left) {
      killed.set(p.pid, p.command);
      signal(p.pid);
    }
  }
  return [...killed].map(([pid, command]) => ({ pid, command }));
}

function signal(target: number) {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // ESRCH: already gone
  }
}

/** A killed process waiting for its parent to reap it: it runs nothing any more. */
function isZombie(pid: number): boolean {
  try {
    return / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, ')'));
  } catch {
    return true;
  }
}
