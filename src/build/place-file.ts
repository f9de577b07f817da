import { copyFile, link } from 'node:fs/promises';

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
