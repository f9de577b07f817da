import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What `stat` says of a file, as the cache compares it. */
const statKey = (s: { size: number; mtimeMs: number; ctimeMs: number; ino: number }) => `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;

/** A file changed within this long of the cache being saved may keep its stat (the clock's tick): it is read again. */
const RACY_MS = 2000;

interface Saved {
  saved: number;
  files: Record<string, [stat: string, digest: string]>;
}

/**
 * SHA-256 digests of files, kept between builds by what `stat` says of each (size, modification and
 * change times, inode), as git's index does: a file whose stat is unchanged is not read again. The
 * build's fingerprint and the bundle step's post digests read every content file (14,000 at
 * 1,000 x 14) on every build; this keeps that to a stat each. A file modified within RACY_MS of the
 * cache being saved could change again without its stat changing, so it is always read.
 */
export function fileDigests(cacheDir: string) {
  const cacheFile = join(cacheDir, 'file-digests.json');
  let before: Saved = { saved: 0, files: {} };
  try {
    before = JSON.parse(readFileSync(cacheFile, 'utf8')) as Saved;
  } catch {
    // No cache yet, or one from an interrupted write: every file is read.
  }
  const now: Saved['files'] = {};
  return {
    /** The hex digest of a file's bytes (read only when its stat changed since the cache was saved). */
    of(file: string): string {
      const path = resolve(file);
      const s = statSync(path);
      const key = statKey(s);
      const known = before.files[path];
      const digest = known && known[0] === key && s.mtimeMs < before.saved - RACY_MS && s.ctimeMs < before.saved - RACY_MS ? known[1] : createHash('sha256').update(readFileSync(path)).digest('hex');
      now[path] = [key, digest];
      return digest;
    },
    /** Keeps the digests of the files asked for in this run (written whole, then renamed over the old). */
    save(): void {
      mkdirSync(dirname(cacheFile), { recursive: true });
      const temp = `${cacheFile}.${process.pid}`;
      writeFileSync(temp, JSON.stringify({ saved: Date.now(), files: now } satisfies Saved));
      renameSync(temp, cacheFile);
    },
  };
}

export type FileDigests = ReturnType<typeof fileDigests>;
