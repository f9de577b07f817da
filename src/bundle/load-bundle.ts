import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Core } from '../core/index.ts';
import type { BundleReader } from './reader.ts';
import { loadBundleCore } from './load-core.ts';
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
  };
}

/** Reads a bundle folder into a core; bodies load on demand and stay cached. */
export const loadCore = (dir: string, options?: SourceOptions): Promise<Core> => loadBundleCore(diskBundle(dir), options);
