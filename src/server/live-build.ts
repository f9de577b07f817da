import { readlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Follows the `current` link of a publish folder: loads the build it points to at start, and a
 * newly published one when the link is switched (polled, so it works on every file system), then
 * swaps it in between requests. A build that fails to load is reported and the old one kept.
 */
export async function followLiveBuild<G>(out: string, load: (dir: string) => Promise<G>, opts: { intervalMs?: number; log: (m: string) => void; onSwap?: (g: G) => void }) {
  const link = join(out, 'current');
  const target = async () => {
    try {
      return resolve(out, await readlink(link));
    } catch (e) {
      throw new Error(`no published build at ${link} (run npm run build): ${(e as Error).message}`);
    }
  };
  let dir = await target();
  let live = await load(dir);
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const next = await target().catch(() => dir);
      if (next === dir) return;
      dir = next;
      live = await load(next);
      opts.onSwap?.(live);
    } catch (e) {
      opts.log(`kept the live build: the new one at ${dir} did not load: ${(e as Error).message}`);
    } finally {
      busy = false;
    }
  }, opts.intervalMs ?? 250);
  timer.unref();
  return {
    current: () => live,
    stop: () => clearInterval(timer),
  };
}
