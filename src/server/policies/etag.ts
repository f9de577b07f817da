import { createHash } from 'node:crypto';

/** The same validator as functions/etag.ts, synchronously (the front server hashes on its hot path). */
export function etagOf(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Headers a 304 keeps (Hono's RETAINED_304_HEADERS). */
export const RETAINED_304_HEADERS = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'];
