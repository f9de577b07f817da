import { createHash } from 'node:crypto';
import { join, relative, sep } from 'node:path';
import { files, SETTINGS } from './fingerprint.ts';
import type { FileDigests } from './file-digests.ts';

/** A slice of a sharded build: shard `k` of `n` (1-based). */
export interface Slice {
  k: number;
  n: number;
}

/** `K/N` as given on the command line; undefined when it is not one. */
export function parseSlice(text: string): Slice | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const [k, n] = [Number(m[1]), Number(m[2])];
  return n >= 1 && k >= 1 && k <= n ? { k, n } : undefined;
}

export const sliceName = ({ k, n }: Slice) => `${k}/${n}`;

/**
 * The shard a post belongs to among `n`: by a digest of its root and slug, so a post stays in its
 * shard whatever else is added or removed, and all its languages (one folder) go together.
 */
export function shardOf(root: string, slug: string, n: number): number {
  return (createHash('sha256').update(`${root}/${slug}`).digest().readUInt32BE(0) % n) + 1;
}

/**
 * What a sharded build is made of, as each shard records it and the merge checks it: the code
 * (with the settings), each setting's value (to name the one that differs), per root the digest of
 * the files every post's pages depend on (site.yaml, pages, taxonomies: everything outside posts/)
 * and the digest of each post's folder.
 */
export interface ShardInputs {
  code: string;
  settings: Record<string, string>;
  roots: Record<string, { shared: string; posts: Record<string, string> }>;
}

/** The inputs of the content roots (name and folder) as they are now; `code` is inputFingerprint's. */
export async function shardInputs(roots: readonly { name: string; contentDir: string }[], code: string, digests: FileDigests, env: NodeJS.ProcessEnv = process.env): Promise<ShardInputs> {
  const out: ShardInputs = { code, settings: Object.fromEntries(SETTINGS.map((name) => [name, env[name] ?? ''])), roots: {} };
  for (const { name, contentDir } of roots) {
    const shared = createHash('sha256');
    const posts = new Map<string, ReturnType<typeof createHash>>();
    for await (const file of files(contentDir)) {
      const rel = relative(contentDir, file).split(sep).join('/');
      const post = /^posts\/([^/]+)\/(.+)$/.exec(rel);
      const hash = post ? posts.get(post[1]!) ?? posts.set(post[1]!, createHash('sha256')).get(post[1]!)! : shared;
      hash.update(`${post ? post[2] : rel}\0${digests.of(file)}\0`);
    }
    out.roots[name] = { shared: shared.digest('hex'), posts: Object.fromEntries([...posts].map(([slug, h]) => [slug, h.digest('hex')])) };
  }
  return out;
}

/** The posts of each root in a slice. */
export function slicePosts(inputs: ShardInputs, slice: Slice): Record<string, string[]> {
  return Object.fromEntries(Object.entries(inputs.roots).map(([root, { posts }]) => [root, Object.keys(posts).filter((slug) => shardOf(root, slug, slice.n) === slice.k)]));
}

/**
 * A shard's cache key: the code and settings, every root's shared files and its own posts' folders.
 * Another shard's posts are not in it: what a page shows of them (the essays to read next) is
 * checked by the merge, which makes again any page whose digest differs (reuse/reuse.ts).
 */
export function shardKey(inputs: ShardInputs, slice: Slice): string {
  const hash = createHash('sha256').update(`${sliceName(slice)}\0${inputs.code}\0${JSON.stringify(inputs.settings)}\0`);
  const posts = slicePosts(inputs, slice);
  for (const [root, { shared, posts: all }] of Object.entries(inputs.roots)) {
    hash.update(`${root}\0${shared}\0`);
    for (const slug of posts[root]!) hash.update(`${slug}\0${all[slug]}\0`);
  }
  return hash.digest('hex');
}

/** What a shard's folder records of how it was made (SHARD_FILE). */
export interface ShardRecord {
  slice: Slice;
  key: string;
  inputs: ShardInputs;
  /** When it was built (ISO time), for whoever looks at a shard folder. */
  made: string;
}

export const SHARD_FILE = 'shard.json';

/**
 * Why shards cannot be merged with the content here, as one line, or undefined when they can:
 * every slice of the same count once, each made by this code and settings from these shared files
 * and from its posts as they are here (a post edited since its shard was built, moved or missing
 * is named).
 */
export function mismatch(shards: readonly { dir: string; record: ShardRecord }[], now: ShardInputs): string | undefined {
  const n = shards[0]?.record.slice.n;
  if (n === undefined) return 'no shards to merge';
  const at = (s: { dir: string; record: ShardRecord }) => `shard ${sliceName(s.record.slice)} (${s.dir})`;
  for (const s of shards) if (s.record.slice.n !== n) return `${at(s)} is one of ${s.record.slice.n} shards, ${at(shards[0]!)} one of ${n}`;
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !shards.some((s) => s.record.slice.k === k));
  if (missing.length > 0) return `shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${n}`).join(', ')} missing: give all ${n}`;
  if (shards.length > n) return `shard ${shards.find((s, i) => shards.findIndex((t) => t.record.slice.k === s.record.slice.k) !== i)!.record.slice.k}/${n} given twice`;
  for (const s of shards) {
    const made = s.record.inputs;
    const setting = Object.keys({ ...made.settings, ...now.settings }).find((name) => (made.settings[name] ?? '') !== (now.settings[name] ?? ''));
    if (setting) return `${at(s)} was built with ${setting}=${JSON.stringify(made.settings[setting] ?? '')}, this merge has ${setting}=${JSON.stringify(now.settings[setting] ?? '')}`;
    if (made.code !== now.code) return `${at(s)} was built by other code than this merge's (src, scripts, package.json…): build every shard from the same commit`;
    const mine = slicePosts(now, s.record.slice);
    for (const [root, here] of Object.entries(now.roots)) {
      const then = made.roots[root];
      if (!then) return `${at(s)} has no content root ${root}`;
      if (then.shared !== here.shared) return `${at(s)} was built from other ${root} site files (site.yaml, pages, taxonomies…) than this merge's`;
      for (const slug of mine[root]!) {
        if (then.posts[slug] === undefined) return `${at(s)} lacks the ${root} post ${slug} (added since it was built)`;
        if (then.posts[slug] !== here.posts[slug]) return `${at(s)} was built from another ${root} post ${slug} than this merge's (edited since)`;
      }
      const gone = Object.keys(then.posts).find((slug) => shardOf(root, slug, n) === s.record.slice.k && here.posts[slug] === undefined);
      if (gone) return `${at(s)} holds the ${root} post ${gone}, which is no longer here`;
    }
  }
  return undefined;
}

/** The shard folder's path for a slice under a parent folder (the local runner's and the cache's). */
export const sliceDir = (parent: string, slice: Slice) => join(parent, `${slice.k}-of-${slice.n}`);
