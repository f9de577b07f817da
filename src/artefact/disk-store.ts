import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HELD, type ArtefactStore } from './storage.ts';
import { holderClient } from './client-files.ts';
import type { BuildLayout } from './roots.ts';

const absent = (e: unknown) => {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
  throw e;
};

/** A self-contained build folder on disk (a host target's copy: every file in its own folder). */
export function diskStore(dir: string): ArtefactStore {
  return { get: (path) => readFile(join(dir, path)).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength), absent) };
}

/**
 * A published build under builds/ (the Node server's): its own folder, and the folders of the earlier
 * builds that hold files of it (`held/<build>/...`, ARTEFACT.site).
 */
export function buildStore(layout: BuildLayout): ArtefactStore {
  const own = diskStore(layout.dir);
  return {
    get(path) {
      if (!path.startsWith(HELD)) return own.get(path);
      const cut = path.indexOf('/', HELD.length);
      return diskStore(holderClient(layout, path.slice(HELD.length, cut))).get(path.slice(cut + 1));
    },
  };
}
