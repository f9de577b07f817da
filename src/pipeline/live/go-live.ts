import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readJson } from '../../fs/read-json.ts';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, rmdir, symlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { holderOf, variantSuffixes } from '../../artefact/manifest.ts';
import { readManifest } from '../../artefact/client-files.ts';
import { filesUnder } from '../../fs/files-under.ts';
import { buildLayout } from '../../artefact/roots.ts';
import { REUSE_FILE } from '../reuse/reuse.ts';
import type { Reuse } from '../../site/page-reuse.ts';
import { sweepCodings } from '../reuse/variant-cache.ts';
import { isRunning, markLive, markRunning, wentLiveAt } from './build-marks.ts';

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
  // A live build made before builds were marked is marked now, as the one before this.
  const live = await liveBuild(out);
  if (live && existsSync(join(out, 'builds', live)) && (await wentLiveAt(join(out, 'builds', live))) === undefined) await markLive(join(out, 'builds', live), Date.now() - 1);
  const temp = join(out, `.current-${randomBytes(4).toString('hex')}`);
  await symlink(join('builds', id), temp);
  await rename(temp, join(out, 'current'));
  // Marked once live, not before: a build killed before its rename is not taken for one that went
  // live (kept in place of one that did); killed after it, it is marked by the next (above).
  await markLive(join(out, 'builds', id));
}

/** Builds that were live before the live one and are kept, so servers still finishing requests on them can. */
export const KEEP_PREVIOUS = 2;

/** A build's `holders` (its manifest's): the earlier builds whose folders hold files of it, kept while it is. */
export const HOLDERS_FILE = 'holders.json';

/**
 * The builds under `builds/` and which stay: the live one, the KEEP_PREVIOUS that went live before
 * it, the builds still running (their process is alive) and the builds those take files from are
 * `kept` whole; `holders` are the other builds whose folders hold files of a kept one (HOLDERS_FILE).
 * Every other folder is a build that died or one no longer needed.
 */
async function keptBuilds(out: string) {
  const dir = join(out, 'builds');
  const live = await liveBuild(out);
  const ids = await readdir(dir).catch(() => [] as string[]);
  const marks = await Promise.all(ids.map(async (id) => ({ id, running: await isRunning(join(dir, id)), wentLive: await wentLiveAt(join(dir, id)) })));
  const previous = marks
    .filter((m) => m.id !== live && m.wentLive !== undefined)
    .sort((a, b) => b.wentLive! - a.wentLive! || b.id.localeCompare(a.id))
    .slice(0, KEEP_PREVIOUS)
    .map((m) => m.id);
  const running = marks.filter((m) => m.running).map((m) => m.id);
  // A build still running takes files from the build that was live when it started (its REUSE_FILE).
  const reused = await Promise.all(running.map(async (id) => (await readJson<Reuse>(join(dir, id, REUSE_FILE)))?.from));
  const kept = new Set([...(live ? [live] : []), ...previous, ...running, ...reused.filter((from) => from !== undefined).map((from) => basename(from))]);
  const named = await Promise.all([...kept].map(async (id) => JSON.parse(await readFile(join(dir, id, HOLDERS_FILE), 'utf8').catch(() => '[]')) as string[]));
  const holders = new Set(named.flat().filter((id) => !kept.has(id)));
  return { dir, ids, kept, holders };
}

/**
 * Removes every build that keptBuilds does not keep, and that no kept build holds files of (those are
 * emptied of everything else by purgeOldBuilds): older builds, and at once those that died mid-way.
 */
export async function removeOldBuilds(out: string): Promise<string[]> {
  const { dir, ids, kept, holders } = await keptBuilds(out);
  const removed: string[] = [];
  for (const id of ids.sort()) {
    if (kept.has(id) || holders.has(id)) continue;
    // Out of builds/ at once (a rename); deleted by purgeOldBuilds, off the build's path.
    await mkdir(join(out, TRASH), { recursive: true });
    await rename(join(dir, id), join(out, TRASH, id));
    removed.push(id);
  }
  return removed;
}

const TRASH = 'trash';

/**
 * Deletes removed builds, then empties each build kept only as a holder of all but the files kept
 * builds take from it (its bundles, manifest, the files made again since, and the folders left empty). Run after a build
 * goes live, in a detached process (purgeOldBuilds): a build of 1,000 essays x 14 languages is a
 * quarter of a million files, seconds of deleting that the author need not wait for.
 */
export async function pruneBuilds(out: string): Promise<void> {
  await rm(resolve(out, TRASH), { recursive: true, force: true });
  const { dir, kept, holders } = await keptBuilds(out);
  if (holders.size === 0) return;
  const held = new Map([...holders].map((id) => [id, new Set<string>()]));
  for (const id of kept) {
    const manifest = await readManifest(buildLayout(join(dir, id))).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    for (const f of manifest?.files ?? []) {
      for (const suffix of variantSuffixes(f)) held.get(holderOf(manifest!, f))?.add(`${f.file}${suffix}`);
    }
  }
  for (const [id, names] of held) {
    const build = buildLayout(join(dir, id));
    for (const name of await readdir(build.dir)) if (name !== 'site') await rm(join(build.dir, name), { recursive: true, force: true });
    for (const file of filesUnder(build.client)) if (!names.has(file)) await rm(join(build.client, file));
    // Then the folders left empty, deepest first (a folder's path is longer than its parent's).
    const folders = (await readdir(build.client, { recursive: true, withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name));
    for (const folder of folders.sort((a, b) => b.length - a.length)) await rmdir(folder).catch(() => undefined);
  }
}

/** Runs pruneBuilds in a detached process, and sweepCodings when given the codings cache and the file of what the build used. */
export function purgeOldBuilds(out: string, codings?: { dir: string; usedFile: string }): void {
  const sweep = codings ? [resolve(codings.dir), resolve(codings.usedFile)] : [];
  spawn(process.execPath, [fileURLToPath(import.meta.url), resolve(out), ...sweep], { detached: true, stdio: 'ignore' }).unref();
}

export async function prepareBuildDir(out: string, id: string): Promise<string> {
  const dir = join(out, 'builds', id);
  await mkdir(dir, { recursive: true });
  await markRunning(dir);
  return dir;
}

// Run as a script by purgeOldBuilds.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, codings, usedFile] = process.argv.slice(2);
  await pruneBuilds(out!);
  if (codings && usedFile) await sweepCodings(codings, usedFile);
}
