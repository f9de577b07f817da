// How the benches time a command: wall time, CPU time, the peak memory of its largest process and of
// all its processes together, and what it printed.
import { spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface Run {
  seconds: number;
  /** User + system CPU seconds of the command and every process it waited for. */
  cpuSeconds: number;
  /** The peak of all its processes together (sampled every 50 ms), or of its largest, whichever is larger. */
  peakMb: number;
  /** The largest peak any one of its processes reached (the kernel's own figure for the children it waited for). */
  largestMb: number;
  /** What the command printed (a Folio build's phase table is in it). */
  out: string;
}

/** A process and its descendants, from /proc (children are started by each process's main thread). */
async function processTree(pid: number): Promise<number[]> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...(await Promise.all(children.map(processTree))).flat()];
}
export const residentMb = async (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1] ?? 0) / 1024;

const TIME = '/usr/bin/time';
const hasTime = spawnSync(TIME, ['-f', '%e', 'true']).status === 0;

/**
 * Runs a command and samples the peak resident memory of its whole process tree: the sum of its
 * processes' resident memory every 50 ms (a build runs steps in processes side by side), or the
 * largest peak one of them has. CPU time and the largest process's peak come from GNU time where
 * it is installed (Debian's `time`), else from the samples only (cpuSeconds 0).
 */
export function measure(cmd: string, args: string[], env: Record<string, string>, cwd = '.'): Promise<Run> {
  // Each run starts on a quiet disk: what the run before it wrote is flushed first, untimed (right
  // after a clean build the kernel is still writing back its 1.4 GB, which slowed the next run by 1-4 s).
  spawnSync('sync');
  const [command, argv] = hasTime ? [TIME, ['-f', 'FOLIO-TIME %U %S %M', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let hwm = 0;
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      const text = c.toString();
      err += text;
      process.stderr.write(text.replace(/^FOLIO-TIME .*\n?/m, ''));
    });
    const sample = setInterval(async () => {
      const pids = await processTree(child.pid!);
      const root = Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => ''))?.[1] ?? 0) / 1024;
      hwm = Math.max(hwm, root, (await Promise.all(pids.map(residentMb))).reduce((a, b) => a + b, 0));
    }, 50);
    child.on('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}\n${out}\n${err.slice(-2000)}`));
      const time = /FOLIO-TIME ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      const reported = Math.max(0, ...[...out.matchAll(/peak rss (\d+) MB/g)].map((m) => Number(m[1])));
      const largestMb = Math.round(Math.max(reported, time ? Number(time[3]) / 1024 : 0));
      resolve({ seconds: (performance.now() - started) / 1000, cpuSeconds: time ? Number(time[1]) + Number(time[2]) : 0, peakMb: Math.round(Math.max(hwm, largestMb)), largestMb, out });
    });
  });
}

/** Files and bytes under a folder (a build's artefact, a host's project): none when it is absent. */
export async function filesUnder(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}
