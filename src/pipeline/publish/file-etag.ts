import { createHash } from 'node:crypto';

/** The same validator as functions/etag.ts, synchronously (the build hashes every file it writes). */
export function etagOf(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
