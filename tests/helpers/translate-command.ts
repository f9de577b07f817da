import { spawn } from 'node:child_process';

/** `npm run translate` as an author runs it, on a copy of the content, with the environment given (keys and endpoints). */
export function runTranslate(root: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/translate.ts', '--root', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The summary's count of segments sent. */
export const sentOf = (out: string) => Number(/(\d+) segments sent/.exec(out)?.[1] ?? NaN);
