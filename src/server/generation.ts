import { readFile } from 'node:fs/promises';
import type { Root } from '../../functions/context.ts';
import { buildLayout, type BuildLayout } from '../artefact/roots.ts';
import type { ManifestFile } from '../artefact/manifest.ts';
import { fileAt, readManifest } from '../artefact/client-files.ts';
import type { Build } from '../app/app.ts';
import { assembleBuild, type SharedHost } from '../app/build.ts';

/**
 * One published build as the Node server serves it: the app's build read from disk. A request
 * takes the generation live when it starts and uses nothing else, so no answer mixes builds.
 */
export interface Generation extends Build {
  id: string;
  layout: BuildLayout;
  roots: Root[];
}

export interface GenerationOptions {
  shared: SharedHost;
  /** The content roots of a build, with their secrets and services. */
  roots: (layout: BuildLayout) => Promise<Root[]>;
  fileCacheBytes: number;
}

export async function loadGeneration(dir: string, opts: GenerationOptions): Promise<Generation> {
  const layout = buildLayout(dir);
  const manifest = await readManifest(layout);
  const fromDisk = async (name: string, file: ManifestFile) => {
    const buffer = await readFile(fileAt(layout, manifest, file, name.slice(file.file.length)));
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  };
  const roots = await opts.roots(layout);
  try {
    return { id: manifest.build, layout, roots, ...assembleBuild(manifest, fromDisk, roots, opts.shared, opts.fileCacheBytes) };
  } catch (e) {
    throw new Error(`${layout.manifest}: ${(e as Error).message}`);
  }
}
