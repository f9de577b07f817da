import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CachedStore } from '../artefact/storage.ts';
import type { Core } from '../core/index.ts';
import type { BundleReader } from './reader.ts';
import { loadBundleCore } from './load-core.ts';
import { readCatalog } from './catalog-file.ts';
import type { Catalog } from '../core/types.ts';
import type { SourceOptions } from '../search/load-source.ts';

const bytesOf = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const absent = (e: unknown) => {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw e;
};

/** A bundle folder on disk, read at any time (synchronously too: search opens a language on its first use). */
export function diskBundle(dir: string): BundleReader {
  return {
    read: (name) => readFile(join(dir, name)).then(bytesOf, absent),
    readSync(name) {
      try {
        return bytesOf(readFileSync(join(dir, name)));
      } catch (e) {
        return absent(e);
      }
    },
    readRangeSync(name, offset, length) {
      let fd: number;
      try {
        fd = openSync(join(dir, name), 'r');
      } catch (e) {
        return absent(e);
      }
      try {
        const bytes = new Uint8Array(length);
        const read = readSync(fd, bytes, 0, length, offset);
        return bytes.subarray(0, read);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/**
 * A bundle folder on disk read through `cache`, a store of the disk by absolute path: one per
 * server, so its bound holds for every root and build the server reads (the parts of the search
 * indexes, load-source.ts).
 */
export function cachedDiskBundle(dir: string, cache: CachedStore): BundleReader {
  const path = (name: string) => resolve(dir, name);
  return { ...diskBundle(dir), read: async (name) => (await cache.get(path(name))) ?? undefined, peek: (name) => cache.peek(path(name)) };
}

/**
 * A bundle folder read synchronously, for a build's step that serves nothing meanwhile: a body is read
 * in one call rather than four trips through libuv's pool (open, stat, read, close), 4,200 bodies at
 * 300 x 14 in the answers step.
 */
function blockingDiskBundle(dir: string): BundleReader {
  const disk = diskBundle(dir);
  return { ...disk, read: async (name) => disk.readSync!(name) };
}

/**
 * Reads a bundle folder into a core; bodies load on demand and stay cached (through `cache` when given:
 * cachedDiskBundle), the posts' entries too (`catalogEntriesBytes` of them held: lazy-catalog.ts).
 * `blocking`: every read is synchronous (blockingDiskBundle).
 */
export const loadCore = (dir: string, options?: SourceOptions & { cache?: CachedStore; blocking?: boolean; catalogEntriesBytes?: number }): Promise<Core> =>
  loadBundleCore(options?.cache ? cachedDiskBundle(dir, options.cache) : options?.blocking ? blockingDiskBundle(dir) : diskBundle(dir), options);

/** A bundle folder's catalog, whole (catalog-file.ts); undefined when it has none. */
export const diskCatalog = (dir: string): Promise<Catalog | undefined> => readCatalog(diskBundle(dir).read);
