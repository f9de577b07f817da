import { signalGroup, spawnGroup } from './process-group.ts';

/** How long one `npm run translate` of a test may run (the slowest, through Apertium, takes about a minute on a busy machine). */
const TRANSLATE_DEADLINE_MS = 300_000;

/** `npm run translate` as an author runs it, on a copy of the content, with the environment given (keys and endpoints). */
export function runTranslate(root: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawnGroup(process.execPath, ['scripts/translate.ts', '--root', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    const timer = setTimeout(() => {
      out += `\n(killed: still running after ${TRANSLATE_DEADLINE_MS / 1000} s)\n`;
      signalGroup(child, 'SIGKILL');
    }, TRANSLATE_DEADLINE_MS);
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The summary's count of segments sent. */
export const sentOf = (out: string) => Number(/(\d+) segments sent/.exec(out)?.[1] ?? NaN);
