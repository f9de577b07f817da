import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { variantSuffixes, type Manifest } from '../../artefact/manifest.ts';
import { gzipOnDemand } from '../../artefact/gzip-coding.ts';
import { gzipCopies } from './gzip-copies.ts';
import type { BuildLayout } from '../../artefact/roots.ts';
import { fileAt } from '../../artefact/client-files.ts';
import { place } from './files.ts';
import type { FrontFile } from './front-files.ts';

/** The link a front's configuration names as its root; the build switches it by one rename. */
export const FRONT_ROOT = 'site';
/** Copies that were live before the live one and stay, for requests a front is still answering from them. */
const KEEP_PREVIOUS = 2;

/**
 * Places a build's front files (with their br copies, and gzip ones made: gzip-copies.ts) in `out/copies/<build>-<random>/` and
 * makes it live by renaming a new `out/site` link over the old: the front sees the old copy or the
 * new one, and needs no reload. Older copies beyond KEEP_PREVIOUS are removed.
 */
export async function writeFrontCopy(layout: BuildLayout, manifest: Manifest, files: readonly FrontFile[], out: string): Promise<number> {
  const id = `${manifest.build}-${randomBytes(3).toString('hex')}`;
  const dir = join(out, 'copies', id);
  let placed = 0;
  const gzip = gzipCopies();
  for (const { name, file } of files) {
    for (const suffix of variantSuffixes(file)) {
      await place(fileAt(layout, manifest, file, suffix), join(dir, `${name}${suffix}`));
      placed++;
    }
    if (gzipOnDemand(file) && (await gzip(fileAt(layout, manifest, file), file, join(dir, `${name}.gz`)))) placed++;
  }
  await mkdir(dir, { recursive: true });
  const previous = await readlink(join(out, FRONT_ROOT)).catch(() => undefined);
  const temp = join(out, `.${FRONT_ROOT}-${randomBytes(4).toString('hex')}`);
  await symlink(join('copies', id), temp);
  await rename(temp, join(out, FRONT_ROOT));
  // The copies by age (their names start with the build id, a time): the live one, the one it replaced and one more stay.
  const kept = new Set([id, ...(previous ? [previous.split('/').pop()!] : [])]);
  const older = (await readdir(join(out, 'copies'))).filter((c) => !kept.has(c)).sort().reverse();
  for (const c of older.slice(KEEP_PREVIOUS - 1)) await rm(join(out, 'copies', c), { recursive: true, force: true });
  return placed;
}
