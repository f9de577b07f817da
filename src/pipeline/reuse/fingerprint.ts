import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { FileDigests } from './file-digests.ts';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * What a build's output depends on besides the content: the code and the settings it reads. Every
 * script, not only the build's steps: a step added later cannot be left out (a change to another
 * script costs one build).
 */
export const CODE = ['src', 'functions', 'public', 'scripts', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
export const SETTINGS = ['SITE_URL', 'PORT', 'RATE_LIMIT', 'RATE_LIMIT_WINDOW', 'BODY_LIMIT', 'FOLIO_DEV_EVENTS', 'FOLIO_DRAFTS'];

/** The files under `path` (or `path` itself, a file), in name order. */
export async function* files(path: string): AsyncGenerator<string> {
  if (!existsSync(path)) return;
  const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
  if (!entries) {
    yield path; // a file
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    // A plain file is one without asking again (a link may be a folder).
    if (e.isFile()) yield join(path, e.name);
    else yield* files(join(path, e.name));
  }
}

// Each file by its name and the digest of its bytes (read only when its stat changed: file-digests.ts).
async function digest(roots: readonly string[], digests: FileDigests, hash = createHash('sha256')) {
  for (const root of roots) {
    for await (const file of files(root)) {
      hash.update(`${root}:${relative(root, file).split(sep).join('/')}\0`);
      hash.update(digests.of(file));
    }
  }
  return hash;
}

/**
 * Digests of a build's inputs: `code` covers the code and the settings, `fingerprint` the content
 * roots too. Equal fingerprints mean a new build would be byte-identical to the old one; equal code
 * means whatever the content of a post alone decides can be taken from the old build (reuse.ts).
 */
export async function inputFingerprint(contentDirs: readonly string[], digests: FileDigests, env: NodeJS.ProcessEnv = process.env): Promise<{ fingerprint: string; code: string }> {
  const hash = await digest(CODE, digests);
  for (const name of SETTINGS) hash.update(`${name}=${env[name] ?? ''}\0`);
  const code = hash.copy().digest('hex');
  return { fingerprint: (await digest(contentDirs, digests, hash)).digest('hex'), code };
}

/** Recorded in each build's folder: its inputs, and the host projects written from it. */
export interface BuildInputs {
  fingerprint: string;
  code: string;
  targets: string[];
  /** Each written target's settings from the environment, as a digest (targets/writers.ts, targetSettings); absent in builds made before. */
  settings?: Record<string, string>;
}

export const INPUTS_FILE = 'inputs.json';
