import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

/** writeWhole's temporary name: `<file>.<pid>.tmp`. */
const TEMP = /\.(\d+)\.tmp$/;

export const isTempFile = (name: string) => TEMP.test(name);

/**
 * Removes the temporary files a killed writeWhole left in a folder (its process is gone): the
 * file they were for is whole, either as it was or as it was written. Returns their names.
 */
export async function removeLeftoverTemps(dir: string): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => {
    const pid = TEMP.exec(n)?.[1];
    return pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid));
  });
  for (const name of names) await rm(join(dir, name), { force: true });
  return names;
}
