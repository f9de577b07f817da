import { copyFileSync, linkSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder } from '../../fs/files-under.ts';

/**
 * Puts a file a cache or the live build already holds into a new build: a hard link (no bytes
 * copied), or a copy across file systems. Nothing writes to a placed file afterwards, so sharing
 * its bytes is safe. Synchronous: a link is a few microseconds in the kernel, less than a trip
 * through libuv's pool costs, and an incremental build makes about 200,000 of them.
 */
export function placeFile(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(from, to);
  }
}

/** Places every file of the folder `from` at the same place under `to` but those `skip` names (by `/`-path under `from`); `ensureDir` makes a file's folder. */
export function placeTree(from: string, to: string, ensureDir: (file: string) => void, skip: (file: string) => boolean = () => false): void {
  for (const file of filesUnder(from)) {
    if (skip(file)) continue;
    ensureDir(join(to, file));
    placeFile(join(from, file), join(to, file));
  }
}
