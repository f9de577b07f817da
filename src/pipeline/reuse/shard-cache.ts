import { existsSync, mkdirSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { placeTree } from './place-file.ts';
import { SHARD_FILE, type Slice } from './shard-inputs.ts';

/** Entries kept per slice (K of N): the newest, and the one before it for a build that goes back. */
const KEEP = 2;

const ensureDir = (file: string) => mkdirSync(dirname(file), { recursive: true });

/**
 * Finished shard folders by their key (shard-inputs.ts shardKey: code, settings, shared files and the
 * slice's own posts), under `<cache>/shards/<k>-of-<n>-<key>`, as hard links (nothing writes a
 * finished shard's files again): a shard whose inputs did not change is placed from here instead of
 * being built.
 */
export function shardCache(cacheDir: string) {
  const root = join(cacheDir, 'shards');
  const entry = (slice: Slice, key: string) => join(root, `${slice.k}-of-${slice.n}-${key}`);
  return {
    /** Places the cached shard of that key into `out`; false when there is none. */
    async take(slice: Slice, key: string, out: string): Promise<boolean> {
      const from = entry(slice, key);
      if (!existsSync(join(from, SHARD_FILE))) return false;
      await rm(out, { recursive: true, force: true });
      placeTree(from, out, ensureDir);
      return true;
    },
    /** Keeps a finished shard folder under its key (written aside, then renamed: never half there), and drops older entries of its slice. */
    async keep(slice: Slice, key: string, dir: string): Promise<void> {
      const to = entry(slice, key);
      const temp = `${to}.${process.pid}`;
      await rm(temp, { recursive: true, force: true });
      placeTree(dir, temp, ensureDir);
      await rm(to, { recursive: true, force: true });
      await rename(temp, to);
      const prefix = `${slice.k}-of-${slice.n}-`;
      const names = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name.startsWith(prefix) && !e.name.includes('.'));
      const ages = await Promise.all(names.map(async (e) => ({ name: e.name, at: (await stat(join(root, e.name))).mtimeMs })));
      for (const old of ages.sort((a, b) => b.at - a.at).slice(KEEP)) await rm(join(root, old.name), { recursive: true, force: true });
    },
  };
}
