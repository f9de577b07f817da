import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CORS_HEADERS } from '../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../app/policies/security.ts';
import { NOT_FOUND_SEGMENT, pageFileAt } from '../../site/page-specs.ts';
import { CACHE_IMMUTABLE } from './write-manifest.ts';
import { VARIANT_FOLDER } from '../../core/responsive-images.ts';

/**
 * What a static host without functions needs beside the files: the headers every Folio answer
 * carries, English living at the root (`/en/...` is a redirect), and the not-found page. Written
 * in the `_headers`/`_redirects` syntax Netlify and Cloudflare Pages read.
 */
/** One `_headers` block: a URL pattern and its headers (`! name` first removes what an earlier block set). */
export const headerBlock = (pattern: string, headers: Record<string, string>, unset: readonly string[] = []) =>
  [pattern, ...unset.map((k) => `  ! ${k}`), ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n');

/** The headers every answer carries, as the `_headers` block for every URL. */
export const POLICY_BLOCK = () => headerBlock('/*', { ...CORS_HEADERS, ...SECURITY_HEADERS });

export async function emitHostFiles(clientDir: string): Promise<void> {
  const block = headerBlock;
  await writeFile(join(clientDir, '_headers'), `${[POLICY_BLOCK(), ...['/_astro/*', `/media/${VARIANT_FOLDER}/*`, `/sandbox/media/${VARIANT_FOLDER}/*`].map((p) => block(p, { 'cache-control': CACHE_IMMUTABLE }))].join('\n')}\n`);
  await writeFile(join(clientDir, '_redirects'), ['/en /  301', '/en/* /:splat 301', '/sandbox/en /sandbox/ 301', '/sandbox/en/* /sandbox/:splat 301', ''].join('\n'));
  await copyFile(join(clientDir, pageFileAt(NOT_FOUND_SEGMENT)), join(clientDir, '404.html'));
}
