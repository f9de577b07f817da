import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { processAlive } from '../../fs/process-alive.ts';

/**
 * Astro renders the pages of a build whose folder is outside the project through the project's own
 * `.astro/` (its fallback output folder), then moves them out. Two such builds of one project at once
 * (a test beside another, an author's build beside the server's scheduled one) would remove each
 * other's chunks there. While it renders, such a build holds this lock: a folder made atomically,
 * naming the holder's process; a holder that died (kill -9) leaves it to the next build.
 */
// Beside `.astro/`, not in it: Astro cleans its own folder when a build ends.
const LOCK = '.folio-render-lock';
const POLL_MS = 250;

/** Whether Astro renders `outDir` through the project's `.astro/` (a folder outside the working directory). */
export const rendersThroughProject = (outDir: string) => {
  const rel = relative(process.cwd(), resolve(outDir));
  return rel.startsWith('..') || isAbsolute(rel);
};

/** Runs `render` holding the project's render lock, waiting for a live holder at most `waitMs`. */
export async function withRenderLock<T>(render: () => Promise<T>, waitMs = 30 * 60_000): Promise<T> {
  const lock = resolve(LOCK);
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
      // A lock without its pid yet is being taken: wait for it like a live one.
      if (holder && !processAlive(holder)) await rm(lock, { recursive: true, force: true });
      else if (Date.now() > until) throw new Error(`another build of this project has been rendering for ${waitMs / 60_000} min (process ${holder || 'unknown'}, ${LOCK})`);
      else await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  try {
    return await render();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
