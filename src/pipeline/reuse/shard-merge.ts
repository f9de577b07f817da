import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readJson } from '../../fs/read-json.ts';
import { buildLayout, type BuildLayout } from '../../artefact/roots.ts';
import { MANIFEST_VERSION, variantSuffixes, type Manifest, type ManifestPath } from '../../artefact/manifest.ts';
import { fileAt, readManifest, saveManifest, selfContained } from '../../artefact/client-files.ts';
import { placeFile } from './place-file.ts';
import { DIGESTS_FILE, type BundleDigests } from './reuse.ts';
import { HOLDERS_FILE } from '../live/go-live.ts';
import { shardOf, SHARD_FILE, type ShardRecord } from './shard-inputs.ts';

export interface Shard {
  dir: string;
  record: ShardRecord;
}

/** The shard folders given to `--merge`, each with what it records; a folder that is no shard is one line. */
export async function readShards(dirs: readonly string[]): Promise<Shard[]> {
  const shards: Shard[] = [];
  for (const dir of dirs) {
    const record = await readJson<ShardRecord>(join(dir, SHARD_FILE));
    if (!record || !existsSync(join(dir, 'manifest.json'))) throw new Error(`${dir} is not a finished shard (no ${SHARD_FILE} or manifest.json): build it with --shard K/N --out ${dir}`);
    shards.push({ dir, record });
  }
  return shards.sort((a, b) => a.record.slice.k - b.record.slice.k);
}

/**
 * The shards as one earlier build (a folder beside the merge's under builds/): every file of their
 * client folders linked into one, and one manifest of them all. The merge then runs as an
 * incremental build from it (reuse/reuse.ts): whatever a shard made as the whole build would make
 * it is linked with its facts (its br and gzip codings included), and the rest is made.
 */
export async function combineShards(shards: readonly Shard[], dir: string): Promise<BuildLayout> {
  const layout = buildLayout(dir);
  const made = new Set<string>();
  const ensureDir = (file: string) => {
    const parent = dirname(file);
    if (!made.has(parent)) mkdirSync(parent, { recursive: true });
    made.add(parent);
  };
  const combined: Manifest = { version: MANIFEST_VERSION, build: basename(dir), created: new Date().toISOString(), limits: { rateLimit: 0, rateWindowSeconds: 0, bodyLimit: 0 }, configDependent: [], files: [], holders: [], paths: {}, notFound: {}, unavailable: {} };
  const byName = new Map<string, number>();
  await mkdir(layout.client, { recursive: true });
  for (const shard of shards) {
    const from = buildLayout(shard.dir);
    const manifest = await readManifest(from);
    // The same name in two shards (Astro's assets, the host files) is the same file: the first is kept.
    const index = manifest.files.map((f) => {
      let i = byName.get(f.file);
      if (i === undefined) {
        const { held: _held, ...own } = f;
        i = combined.files.push(own) - 1;
        byName.set(f.file, i);
        for (const suffix of variantSuffixes(f)) {
          const to = join(layout.client, `${f.file}${suffix}`);
          ensureDir(to);
          placeFile(fileAt(from, manifest, f, suffix), to);
        }
      }
      return i;
    });
    const reindex = (answers: ManifestPath['answers']): ManifestPath['answers'] =>
      Object.fromEntries(Object.entries(answers).map(([q, a]) => [q, typeof a === 'number' ? index[a]! : Object.fromEntries(Object.entries(a).map(([o, i]) => [o, index[i!]!]))]));
    for (const [path, entry] of Object.entries(manifest.paths)) combined.paths[path] ??= { ...entry, answers: reindex(entry.answers) };
    for (const [key, i] of Object.entries(manifest.unavailable)) combined.unavailable[key] ??= index[i]!;
    for (const [prefix, i] of Object.entries(manifest.notFound)) combined.notFound[prefix] ??= index[i]!;
  }
  await saveManifest(layout.dir, combined);
  return layout;
}

/**
 * The combined shards' bundle digests, once the merge's own bundle is made: for each post, the
 * digest of its pages as its own shard made them, when that shard saw the root's scope as the merge
 * does (else its pages are made again). A post whose pages show another post that changed since a
 * reused shard was made (what to read next) has another digest now: the merge makes its pages again.
 */
export async function composeDigests(shards: readonly Shard[], combined: BuildLayout, merged: BuildLayout, roots: readonly string[]): Promise<void> {
  for (const root of roots) {
    const now = await readJson<BundleDigests>(join(merged.bundle(root), DIGESTS_FILE));
    if (!now) continue;
    const pages: Record<string, string> = {};
    for (const shard of shards) {
      const made = await readJson<BundleDigests>(join(buildLayout(shard.dir).bundle(root), DIGESTS_FILE));
      if (!made || made.scope !== now.scope) continue;
      for (const [slug, digest] of Object.entries(made.pages)) if (shardOf(root, slug, shard.record.slice.n) === shard.record.slice.k) pages[slug] = digest;
    }
    await mkdir(combined.bundle(root), { recursive: true });
    await writeFile(join(combined.bundle(root), DIGESTS_FILE), JSON.stringify({ scope: now.scope, posts: {}, pages, sources: {} } satisfies BundleDigests));
  }
}

/**
 * The merged build made whole in its own folder: the files it keeps in the combined shards' folder
 * are linked into its own, and its manifest names no holder, as a one-machine build's. The combined
 * folder can then go.
 */
export async function selfContain(layout: BuildLayout, manifest: Manifest): Promise<Manifest> {
  const made = new Set<string>();
  for (const f of manifest.files) {
    if (f.held === undefined) continue;
    for (const suffix of variantSuffixes(f)) {
      const to = join(layout.client, `${f.file}${suffix}`);
      if (!made.has(dirname(to))) mkdirSync(dirname(to), { recursive: true });
      made.add(dirname(to));
      placeFile(fileAt(layout, manifest, f, suffix), to);
    }
  }
  const whole = selfContained(manifest);
  await saveManifest(layout.dir, whole);
  await writeFile(join(layout.dir, HOLDERS_FILE), '[]');
  return whole;
}
