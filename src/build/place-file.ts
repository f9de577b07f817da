import { copyFile, link } from 'node:fs/promises';
import { join } from 'node:path';
import { filesUnder } from './files-under.ts';
import { pooled } from './pooled.ts';

/**
 * Puts a file a cache or the live build already holds into a new build: a hard link (no bytes
 * copied), or a copy across file systems. Nothing writes to a placed file afterwards, so sharing
 * its bytes is safe.
 */
export async function placeFile(from: string, to: string): Promise<void> {
  await link(from, to).catch(async (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EXDEV') throw e;
    await copyFile(from, to);
  });
}

/** Places every file of the folder `from` at the same place under `to`; `ensureDir` makes a file's folder. */
export async function placeTree(from: string, to: string, ensureDir: (file: string) => Promise<unknown>): Promise<void> {
  await pooled(filesUnder(from), 16, async (file) => {
    await ensureDir(join(to, file));
    await placeFile(join(from, file), join(to, file));
  });
}
