import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, brotliDecompressSync } from 'node:zlib';
import type { Core } from '../core/index.ts';
import type { BundleReader } from './reader.ts';
import { loadBundleCore } from './load-core.ts';
import type { SourceOptions } from '../search/load-source.ts';

const bytesOf = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const absent = (e: unknown) => {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw e;
};

/** The suffix of a bundle file shipped brotli-compressed (a serverless function's, sized for its host's limit). */
export const PACKED = '.br';

const unpack = promisify(brotliDecompress);

/** A bundle folder on disk: each file as it is, or its brotli-compressed copy (`{name}.br`) decompressed. */
export function diskBundle(dir: string): BundleReader {
  return {
    async read(name) {
      const plain = await readFile(join(dir, name)).then(bytesOf, absent);
      if (plain) return plain;
      const packed = await readFile(join(dir, name + PACKED)).catch(absent);
      return packed && bytesOf(await unpack(packed));
    },
    readSync(name) {
      for (const [file, decode] of [[name, (b: Buffer) => b], [name + PACKED, brotliDecompressSync]] as const) {
        try {
          return bytesOf(decode(readFileSync(join(dir, file))));
        } catch (e) {
          absent(e);
        }
      }
      return undefined;
    },
  };
}

/** Reads a bundle folder into a core; bodies load on demand and stay cached. */
export const loadCore = (dir: string, options?: SourceOptions): Promise<Core> => loadBundleCore(diskBundle(dir), options);
