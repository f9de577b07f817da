import { gzipSync } from 'node:zlib';
import { worthCompressing } from './manifest.ts';

/**
 * The gzip coding of a published body. A build stores only the br copy (ManifestFile.br); a host
 * makes gzip when a client takes gzip and not br (few do: every browser since 2017 sends br), with
 * these settings, which are the ones builds stored `.gz` copies with: the same bytes as before.
 * Null when it does not pay (worthCompressing), as a build then stored none.
 */
export function gzipCoding(body: Uint8Array): Uint8Array | null {
  const out = gzipSync(body, { level: 6 });
  return worthCompressing(out.byteLength, body.byteLength) ? new Uint8Array(out.buffer, out.byteOffset, out.byteLength) : null;
}

/** Whether a file offers gzip made on demand: it has a br copy and no stored gzip one. */
export const gzipOnDemand = (f: { br?: number; gzip?: number }) => f.br !== undefined && f.gzip === undefined;
