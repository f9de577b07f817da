import { copyFile, link, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ClientFile } from '../../artefact/client-files.ts';

/** One file into place: a hard link when the folders share a file system (no bytes copied), else a copy. */
export async function place(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await link(from, to).catch(() => copyFile(from, to));
}

/** Files into a folder (`skip` by their relative path, each at `rename`'s relative path); how many, and the largest. */
export async function mirror(from: readonly ClientFile[], to: string, skip: (rel: string) => boolean = () => false, rename = (rel: string) => rel): Promise<{ files: number; largest: number }> {
  let files = 0;
  let largest = 0;
  for (const { rel, path } of from) {
    if (skip(rel)) continue;
    await place(path, join(to, rename(rel)));
    largest = Math.max(largest, (await stat(path)).size);
    files++;
  }
  return { files, largest };
}

/** The bytes of a folder's files, a hard link counted at each of its names (as a host counts an upload). */
export async function folderBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  return bytes;
}
