import { spawn } from 'node:child_process';

/** Each command loads every post: generous on a loaded 2-core machine. */
export const DEADLINE_MS = 60_000;

/** `npm run translations -- <args> --root <root>`, its process group killed at the deadline. */
export function translations(root: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/translations.ts', ...args, '--root', root], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`translations ${args.join(' ')}: no answer in ${DEADLINE_MS} ms`));
    }, DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
