import { copyFile, link, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) if (e.isFile()) yield join(e.parentPath, e.name);
}

/** One file into place: a hard link when the folders share a file system (no bytes copied), else a copy. */
export async function place(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await link(from, to).catch(() => copyFile(from, to));
}

/** A folder's files into another (`skip` by path relative to it, each at `rename`'s relative path); how many, and the largest. */
export async function mirror(from: string, to: string, skip: (rel: string) => boolean = () => false, rename = (rel: string) => rel): Promise<{ files: number; largest: number }> {
  let files = 0;
  let largest = 0;
  for await (const file of filesUnder(from)) {
    const rel = relative(from, file);
    if (skip(rel)) continue;
    await place(file, join(to, rename(rel)));
    largest = Math.max(largest, (await stat(file)).size);
    files++;
  }
  return { files, largest };
}
