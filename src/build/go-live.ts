import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, rename, stat, symlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';

/**
 * Atomic publishing: a build is written into a fresh `builds/<id>` folder and goes live when the
 * `current` link is switched to it by one rename, so readers see the old build or the new one,
 * never a mix, and a failed build never touches what is live.
 */
export function newBuildId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace('.', '')}-${randomBytes(3).toString('hex')}`;
}

/** The id of the live build (the folder `current` points to), or undefined before the first. */
export async function liveBuild(out: string): Promise<string | undefined> {
  try {
    return basename(await readlink(join(out, 'current')));
  } catch {
    return undefined;
  }
}

/** Points `current` at `builds/<id>`: a new link beside it, renamed over it. */
export async function goLive(out: string, id: string): Promise<void> {
  if (!existsSync(join(out, 'builds', id, 'manifest.json'))) throw new Error(`build ${id} is incomplete: no manifest`);
  const current = await lstat(join(out, 'current')).catch(() => undefined);
  if (current && !current.isSymbolicLink()) throw new Error(`${join(out, 'current')} is not a link (left by something else): move it away`);
  const temp = join(out, `.current-${randomBytes(4).toString('hex')}`);
  await symlink(join('builds', id), temp);
  await rename(temp, join(out, 'current'));
}

/** Builds kept besides the live one, so servers still finishing requests on them can. */
export const KEEP_PREVIOUS = 2;

/** A build's `holders` (its manifest's): the earlier builds whose folders hold files of it, kept while it is. */
export const HOLDERS_FILE = 'holders.json';

/**
 * Removes builds older than the live one and the KEEP_PREVIOUS before it, unless one kept holds files
 * of it (HOLDERS_FILE), and folders of builds that never finished once they are an hour old (a build
 * still running is younger).
 */
export async function removeOldBuilds(out: string): Promise<string[]> {
  const dir = join(out, 'builds');
  const live = await liveBuild(out);
  const ids = (await readdir(dir).catch(() => [] as string[])).sort();
  const complete = ids.filter((id) => existsSync(join(dir, id, 'manifest.json')));
  // A newer complete build that is not live yet is another build about to switch: it stays too.
  const kept = [...(live ? [live] : []), ...complete.filter((id) => !live || id <= live).slice(-(KEEP_PREVIOUS + 1)), ...complete.filter((id) => live && id > live)];
  const holders = await Promise.all(kept.map(async (id) => JSON.parse(await readFile(join(dir, id, HOLDERS_FILE), 'utf8').catch(() => '[]')) as string[]));
  const keep = new Set([...kept, ...holders.flat()]);
  const removed: string[] = [];
  for (const id of ids) {
    if (keep.has(id)) continue;
    if (!complete.includes(id)) {
      const age = Date.now() - (await stat(join(dir, id))).mtimeMs;
      if (age < 3_600_000) continue;
    }
    // Out of builds/ at once (a rename); deleted by purgeOldBuilds, off the build's path.
    await mkdir(join(out, TRASH), { recursive: true });
    await rename(join(dir, id), join(out, TRASH, id));
    removed.push(id);
  }
  return removed;
}

const TRASH = 'trash';

/**
 * Deletes removed builds in a detached process: a build of 1,000 essays x 14 languages is a quarter
 * of a million files, seconds of deleting that the author need not wait for.
 */
export function purgeOldBuilds(out: string): void {
  const trash = resolve(out, TRASH);
  if (!existsSync(trash)) return;
  spawn(process.execPath, ['-e', `require('node:fs').rmSync(${JSON.stringify(trash)}, { recursive: true, force: true })`], { detached: true, stdio: 'ignore' }).unref();
}

export async function prepareBuildDir(out: string, id: string): Promise<string> {
  const dir = join(out, 'builds', id);
  await mkdir(dir, { recursive: true });
  return dir;
}
