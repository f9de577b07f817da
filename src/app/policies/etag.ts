/** Conditional requests: one comparison for published files and computed answers alike. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Headers a 304 keeps (Hono's RETAINED_304_HEADERS). */
export const RETAINED_304_HEADERS = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'];
