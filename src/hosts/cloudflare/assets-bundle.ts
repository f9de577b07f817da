import type { ArtefactStore } from '../../artefact/storage.ts';

/** Where the worker's private build files sit among the assets or in R2 (the worker never serves them). */
export const PRIVATE_PREFIX = '/_folio';

/**
 * The URL the assets answer a file at: with `html_handling: 'auto-trailing-slash'` they serve
 * `/x.html` at `/x` and `/fr/index.html` at `/fr/`, and answer the file's own name with a redirect.
 */
export const assetUrl = (name: string) => (name.endsWith('/index.html') ? name.slice(0, -'index.html'.length) : name.endsWith('.html') ? name.slice(0, -'.html'.length) : name);

/** A file of the static assets by its name there (the binding needs a URL; its host is ignored). */
export async function assetBytes(assets: Fetcher, name: string): Promise<Uint8Array | null> {
  const response = await assets.fetch(new Request(`https://assets.invalid${encodeURI(assetUrl(name))}`));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`assets: ${name} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** An object of the R2 bucket by its key. */
export async function r2Bytes(bucket: R2Bucket, key: string): Promise<Uint8Array | null> {
  const object = await bucket.get(key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

/**
 * The artefact on Workers: a file of the site by the name the worker's manifest gives it
 * (src/pipeline/targets/workers-layout.ts), the build's own files under PRIVATE_PREFIX. With an R2
 * bucket (an artefact past the assets' file limit), everything under PRIVATE_PREFIX is read from
 * it, by the same name without its leading slash; the public files from the assets.
 */
export function workersStore(assets: Fetcher, r2?: R2Bucket): ArtefactStore {
  return {
    get(path) {
      const name = path.startsWith('site/client/') ? path.slice('site/client'.length) : `${PRIVATE_PREFIX}/${path}`;
      return r2 && name.startsWith(`${PRIVATE_PREFIX}/`) ? r2Bytes(r2, name.slice(1)) : assetBytes(assets, name);
    },
  };
}
