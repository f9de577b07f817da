import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { holderOf, variantSuffixes, type Manifest, type ManifestFile } from './manifest.ts';
import { filesUnder } from '../fs/files-under.ts';
import type { BuildLayout } from './roots.ts';

/**
 * A build's static artefact, file by file. An incremental build leaves the files it did not change
 * in the folder of the build that made them (its manifest names that build: ManifestFile.held), so
 * its own client folder holds only what it made; whatever reads or copies the artefact (the Node
 * server, the host targets, the tests) finds each file through here.
 */
export interface ClientFile {
  /** Its site path without the leading slash (`fr/x.html.br`). */
  rel: string;
  /** Where its bytes are. */
  path: string;
}

/** The client folder of a build beside this one under builds/ (the layout may be reached through `current`). */
export function holderClient(layout: BuildLayout, holder: string): string {
  let builds = buildsOf.get(layout.dir);
  if (builds === undefined) buildsOf.set(layout.dir, (builds = dirname(realpathSync(layout.dir))));
  return join(builds, holder, 'site', 'client');
}
const buildsOf = new Map<string, string>();

/** Where a manifest file's bytes are (`suffix` '.br' or '.gz' for a variant). */
export function fileAt(layout: BuildLayout, manifest: Manifest, file: ManifestFile, suffix = ''): string {
  const holder = holderOf(manifest, file);
  return join(holder === manifest.build ? layout.client : holderClient(layout, holder), `${file.file}${suffix}`);
}

export const readManifest = async (layout: BuildLayout): Promise<Manifest> => JSON.parse(await readFile(layout.manifest, 'utf8')) as Manifest;

/** A folder's files. */
export const folderFiles = (dir: string): ClientFile[] => filesUnder(dir).map((name) => ({ rel: name.slice(1), path: join(dir, name) }));

/** Every file of the artefact: the build's own folder (host files included) and the files it keeps in earlier builds' folders. */
export function clientFiles(layout: BuildLayout, manifest: Manifest): ClientFile[] {
  const held = manifest.files.filter((f) => f.held !== undefined);
  return [...folderFiles(layout.client), ...held.flatMap((f) => variantSuffixes(f).map((suffix) => ({ rel: `${f.file.slice(1)}${suffix}`, path: fileAt(layout, manifest, f, suffix) })))];
}

/** The manifest of a build copied whole into one folder (a host target): every file in its own client folder. */
export function selfContained(manifest: Manifest): Manifest {
  return { ...manifest, holders: [], files: manifest.files.map(({ held: _held, ...f }) => f) };
}
