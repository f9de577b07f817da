import { renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';

/**
 * Writes a file aside, then renames it into place: a process killed midway (kill -9, a full disk)
 * leaves the last whole file, never a truncated one. The temporary name is per process, so two
 * processes writing the same file never interleave; the last rename wins.
 */
export async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}

/** writeWhole for a caller that cannot wait (a write in microseconds, cheaper than libuv's trips). */
export function writeWholeSync(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, file);
}
