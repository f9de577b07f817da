import { realpathSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { holderOf, variantSuffixes, type Manifest, type ManifestChunk, type ManifestFile, type ManifestRoot } from './manifest.ts';
import { chunkFile, joinManifest, splitManifest } from './manifest-chunks.ts';
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

/** A build's manifest, whole (its root and every chunk joined): what the pipeline and the targets work on. */
export async function readManifest(layout: BuildLayout): Promise<Manifest> {
  const root = JSON.parse(await readFile(layout.manifest, 'utf8')) as ManifestRoot;
  const chunks: ManifestChunk[] = [];
  // A few at a time: thousands of chunks at the largest sizes.
  for (let k = 0; k < root.chunks; k += 64) {
    const batch = Array.from({ length: Math.min(64, root.chunks - k) }, (_, i) => readFile(join(layout.dir, chunkFile(k + i)), 'utf8'));
    for (const text of await Promise.all(batch)) chunks.push(JSON.parse(text) as ManifestChunk);
  }
  return joinManifest(root, chunks);
}

/**
 * Stores a manifest in a build folder (`dir`) as the hosts read it: the chunks first, the root
 * (`manifest.json`, what says a build is complete) last. Chunks of an earlier manifest there go.
 * Returns the number of files written.
 */
export async function saveManifest(dir: string, manifest: Manifest): Promise<number> {
  const { root, chunks } = splitManifest(manifest);
  await rm(join(dir, 'manifest'), { recursive: true, force: true });
  await mkdir(join(dir, 'manifest'), { recursive: true });
  for (let k = 0; k < chunks.length; k += 64) await Promise.all(chunks.slice(k, k + 64).map((c, i) => writeFile(join(dir, chunkFile(k + i)), JSON.stringify(c))));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(root));
  return chunks.length + 1;
}

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
