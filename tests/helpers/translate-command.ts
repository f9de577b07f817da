import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * A copy of the demo's content in a temp folder (`prefix` names it) with only `posts`, each in English only,
 * no standalone pages (they are translated too: tests/e2e/translate-pages.test.ts), `settings` as its
 * translation.yaml, and no taxonomies.yaml (the demo's names are for terms of posts left out: a run makes its own).
 */
export async function englishOnlyContent(prefix: string, posts: readonly string[], settings: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  await cp('content', root, { recursive: true });
  await rm(join(root, 'pages'), { recursive: true });
  for (const slug of await readdir(join(root, 'posts'))) {
    if (!posts.includes(slug)) await rm(join(root, 'posts', slug), { recursive: true });
    else for (const file of await readdir(join(root, 'posts', slug))) if (file.endsWith('.md') && file !== 'en.md') await rm(join(root, 'posts', slug, file));
  }
  await writeFile(join(root, 'translation.yaml'), settings);
  await rm(join(root, 'taxonomies.yaml'), { force: true });
  return root;
}
