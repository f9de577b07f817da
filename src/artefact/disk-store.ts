import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtefactStore } from './storage.ts';

const absent = (e: unknown) => {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
  throw e;
};

/** A self-contained build folder on disk (a host target's copy: every file in its own folder). */
export function diskStore(dir: string): ArtefactStore {
  return { get: (path) => readFile(join(dir, path)).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength), absent) };
}
