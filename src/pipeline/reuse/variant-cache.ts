import { linkSync, mkdirSync, opendirSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { writeWholeSync } from '../../fs/write-whole.ts';
import { join } from 'node:path';
import { placeFile } from './place-file.ts';

/**
 * Precompressed variants kept across builds by the bytes' digest (the ETag), so a rebuild codes only
 * what changed. An entry is a file per coding (`<digest>.br`, `<digest>.gz`), or an empty
 * `<digest>.<ext>.none` saying the coding did not pay. Entries reach a build through placeFile.
 */
export function variantCache(dir: string) {
  const used = new Set<string>();
  // A clean build finds no cache: nothing is asked of the disk then (two failed stats a coding, some
  // 290,000 at 1,000 x 14). What another process puts meanwhile is only coded again, and put allows that.
  const emptyAtStart = isEmptyDir(dir);
  let made = false;
  const entry = (digest: string, ext: string) => join(dir, `${digest}.${ext}`);
  return {
    /** The coding's length, placed at `to`; 'none' when it did not pay; undefined when not cached. */
    async take(digest: string, ext: string, to: string): Promise<number | 'none' | undefined> {
      used.add(digest);
      if (emptyAtStart) return undefined;
      try {
        const from = entry(digest, ext);
        const { size } = await stat(from);
        placeFile(from, to);
        return size;
      } catch {
        return (await stat(`${entry(digest, ext)}.none`).then(() => true, () => false)) ? 'none' : undefined;
      }
    },
    /**
     * Keeps a coding made now (or that it did not pay), placed at `to` when it did. Synchronous: a
     * coding is written in microseconds, less than its trips through libuv's pool would cost.
     */
    put(digest: string, ext: string, bytes: Uint8Array | undefined, to: string): void {
      used.add(digest);
      if (!made) {
        mkdirSync(dir, { recursive: true });
        made = true;
      }
      const file = entry(digest, ext);
      if (!bytes) return writeFileSync(`${file}.none`, '');
      // Written into the build, then linked into the cache: a link appears whole, and an entry older
      // builds link to is never written through. Another build may have put the same entry meanwhile.
      writeFileSync(to, bytes);
      try {
        linkSync(to, file);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return;
        if (code !== 'EXDEV') throw e;
        // A cache on another file system: a copy, renamed into place.
        writeWholeSync(file, bytes);
      }
    },
    /** Marks a digest as used by this build (a file taken from the live build keeps its codings cached). */
    keep(digest: string): void {
      used.add(digest);
    },
    /**
     * Writes the digests this build used into a file beside the cache, for sweepCodings to run off the
     * build's path (purgeOldBuilds): its path.
     */
    async saveUsed(): Promise<string> {
      const file = `${dir}.used-${process.pid}.json`;
      await writeFile(file, JSON.stringify([...used]));
      return file;
    },
  };
}

/** Whether a folder is absent or holds nothing (one entry read, whatever its size). */
function isEmptyDir(dir: string): boolean {
  let d;
  try {
    d = opendirSync(dir);
  } catch {
    return true;
  }
  try {
    return d.readSync() === null;
  } finally {
    d.closeSync();
  }
}

/**
 * Drops the cache's entries a build did not use (`usedFile`, its saveUsed) once they outnumber the
 * used ones: old builds hold their own links. Reading the folder alone takes about 0.1 s at
 * 1,000 x 14, so it runs after the build, in its purge process.
 */
export async function sweepCodings(dir: string, usedFile: string): Promise<number> {
  const used = new Set(JSON.parse(await readFile(usedFile, 'utf8')) as string[]);
  await rm(usedFile, { force: true });
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.length <= 4 * used.size + 1000) return 0;
  const stale = names.filter((n) => !used.has(n.slice(0, n.indexOf('.'))));
  for (const n of stale) await rm(join(dir, n), { force: true });
  return stale.length;
}
