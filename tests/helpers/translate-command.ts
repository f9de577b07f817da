import { signalGroup, spawnGroup } from './process-group.ts';

/** Longer than any run of the tests takes on a loaded machine (a whole demo through Apertium takes about a minute). */
const DEADLINE_MS = 10 * 60_000;

/**
 * `npm run translate` as an author runs it, on a copy of the content, with the environment given
 * (keys and endpoints). Its process group is killed at the deadline (code null then).
 */
export function runTranslate(root: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, deadlineMs = DEADLINE_MS): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawnGroup(process.execPath, ['scripts/translate.ts', '--root', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    const timer = setTimeout(() => {
      out += `\n(killed: still running after ${deadlineMs / 1000} s)\n`;
      signalGroup(child, 'SIGKILL');
    }, deadlineMs);
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, ms: performance.now() - started });
    });
  });
}

/** The summary's count of segments sent. */
export const sentOf = (out: string) => Number(/(\d+) segments sent/.exec(out)?.[1] ?? NaN);
