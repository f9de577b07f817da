import type { BundleReader } from '../../bundle/reader.ts';

/** Where the worker's private build files sit among the assets (the worker never serves them). */
export const PRIVATE_PREFIX = '/_folio';

/** A file of the static assets by its path there (the binding needs a URL; its host is ignored). */
export async function assetBytes(assets: Fetcher, path: string): Promise<Uint8Array | undefined> {
  const response = await assets.fetch(new Request(`https://assets.invalid${encodeURI(path)}`));
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`assets: ${path} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** A root's bundle, read through the assets binding. */
export function assetsBundle(assets: Fetcher, root: string): BundleReader {
  return { read: (name) => assetBytes(assets, `${PRIVATE_PREFIX}/bundle/${root}/${name}`) };
}
