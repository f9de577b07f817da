/**
 * The decoded path of a raw request target, or undefined when it is malformed: bad
 * percent-encoding, NUL, backslashes, or a dot segment trying to climb out.
 */
export function safePath(rawTarget: string): string | undefined {
  const raw = rawTarget.split('?')[0]!.split('#')[0]!;
  if (!raw.startsWith('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  if (decoded.split('/').some((seg) => seg === '..' || seg === '.')) return undefined;
  return decoded.replace(/\/{2,}/g, '/');
}

/** Is every percent-escape of a query string (`?a=b&c`, or without its `?`) well formed? */
export function wellEncodedQuery(query: string): boolean {
  try {
    decodeURIComponent(query.replace(/^\?/, '').replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}
