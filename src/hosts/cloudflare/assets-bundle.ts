import type { ArtefactStore } from '../../artefact/storage.ts';

/** Where the worker's private build files sit among the assets (the worker never serves them). */
export const PRIVATE_PREFIX = '/_folio';

/** A file of the static assets by its path there (the binding needs a URL; its host is ignored). */
export async function assetBytes(assets: Fetcher, path: string): Promise<Uint8Array | null> {
  const response = await assets.fetch(new Request(`https://assets.invalid${encodeURI(path)}`));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`assets: ${path} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The artefact through the assets binding: the site's files where the assets serve them, the build's own under PRIVATE_PREFIX. */
export function assetsStore(assets: Fetcher): ArtefactStore {
  return { get: (path) => assetBytes(assets, path.startsWith('site/client/') ? path.slice('site/client'.length) : `${PRIVATE_PREFIX}/${path}`) };
}
