import { buildLayout, DIST } from '../../src/artefact/roots.ts';
import { readManifest } from '../../src/artefact/client-files.ts';
import type { Manifest, ManifestFile, Offer } from '../../src/artefact/manifest.ts';
import { FORMATS } from '../../src/core/formats.ts';

/** The live build's manifest (or a build folder's), whole: its root and chunks joined. */
export const liveManifest = (dir = DIST.dir): Promise<Manifest> => readManifest(buildLayout(dir));

export interface PublishedRequest {
  /** Path and query, as a client sends them. */
  target: string;
  accept?: string;
  file: ManifestFile;
}

/** Every request the manifest answers with a file (a negotiated URL once per offer). */
export function publishedRequests(manifest: Manifest): PublishedRequest[] {
  const out: PublishedRequest[] = [];
  for (const [path, entry] of Object.entries(manifest.paths)) {
    for (const [query, answer] of Object.entries(entry.answers)) {
      const target = query ? `${path}?${query}` : path;
      if (typeof answer === 'number') out.push({ target, file: manifest.files[answer]! });
      else for (const [offer, i] of Object.entries(answer)) out.push({ target, accept: FORMATS[offer as Offer].mediaType, file: manifest.files[i]! });
    }
  }
  return out;
}
