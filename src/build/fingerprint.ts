import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** What a build's output depends on besides the content: the code and the settings it reads. */
const CODE = ['src', 'functions', 'public', 'scripts/build.ts', 'scripts/bundle.ts', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
const SETTINGS = ['SITE_URL', 'PORT', 'RATE_LIMIT', 'RATE_LIMIT_WINDOW', 'BODY_LIMIT', 'FOLIO_DEV_EVENTS'];

async function* files(path: string): AsyncGenerator<string> {
  if (!existsSync(path)) return;
  const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
  if (!entries) {
    yield path; // a file
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) yield* files(join(path, e.name));
}

/**
 * A digest of every input of a build: the bytes of the content roots and the code (by relative path)
 * and the settings. Equal digests mean a new build would be byte-identical to the old one.
 */
export async function inputFingerprint(contentDirs: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const hash = createHash('sha256');
  for (const root of [...contentDirs, ...CODE]) {
    for await (const file of files(root)) {
      hash.update(`${root}:${relative(root, file).split(sep).join('/')}\0`);
      hash.update(await readFile(file));
    }
  }
  for (const name of SETTINGS) hash.update(`${name}=${env[name] ?? ''}\0`);
  return hash.digest('hex');
}

/** Recorded in each build's folder: its inputs, and the host projects written from it. */
export interface BuildInputs {
  fingerprint: string;
  targets: string[];
}

export const INPUTS_FILE = 'inputs.json';
