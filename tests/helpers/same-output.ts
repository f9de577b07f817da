import assert from 'node:assert/strict';
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { buildLayout } from '../../src/artefact/roots.ts';
import { clientFiles, readManifest } from '../../src/artefact/client-files.ts';

/** Every file under a folder, by its path from it, with its bytes. */
export async function files(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(relative(root, join(e.parentPath, e.name)), await readFile(join(e.parentPath, e.name)));
  }
  return out;
}

/** The live build's layout and manifest under a publish folder. */
export async function live(out: string) {
  const layout = buildLayout(await realpath(join(out, 'current')));
  return { layout, manifest: await readManifest(layout) };
}

/** Every file of the live build's static artefact, wherever it is held (src/artefact/client-files.ts). */
async function artefact(out: string): Promise<Map<string, Buffer>> {
  const { layout, manifest } = await live(out);
  return new Map(await Promise.all(clientFiles(layout, manifest).map(async (f) => [f.rel, await readFile(f.path)] as const)));
}

/** Asserts two maps of files hold the same names with the same bytes. */
export function assertSameFiles(fa: Map<string, Buffer>, fb: Map<string, Buffer>, part: string): void {
  assert.deepEqual([...fa.keys()].sort(), [...fb.keys()].sort(), `the same files in ${part}`);
  const differ = [...fa].filter(([name, bytes]) => !bytes.equals(fb.get(name)!)).map(([name]) => name);
  assert.deepEqual(differ, [], `byte-identical files in ${part}`);
}

/**
 * The live builds under two publish folders publish the same: every file of the static artefact and
 * of the bundles the server loads (search indexes included) byte for byte, and the manifest but its
 * build id, time and where files are held.
 */
export async function assertSameOutput(a: string, b: string): Promise<void> {
  assertSameFiles(await artefact(a), await artefact(b), 'the static artefact');
  assertSameFiles(await files(join(a, 'current', 'bundle')), await files(join(b, 'current', 'bundle')), 'bundle');
  const manifest = async (d: string) => {
    const { build: _b, created: _c, holders: _h, files, ...rest } = (await live(d)).manifest;
    return { ...rest, files: files.map(({ held: _held, ...f }) => f) };
  };
  assert.deepEqual(await manifest(a), await manifest(b));
}
