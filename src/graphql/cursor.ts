import { errors } from '../core/errors.ts';

/**
 * Connection cursors: opaque to clients, base64 of the item's offset in its list. A cursor names
 * a position, not a query, so it stays valid across `first` values.
 */
const PREFIX = 'offset:';

export function encodeCursor(offset: number): string {
  return btoa(`${PREFIX}${offset}`);
}

/** The offset the next window starts at: one past the `after` cursor, 0 without one. */
export function offsetAfter(after: string | null | undefined): number {
  if (after === null || after === undefined) return 0;
  let decoded = '';
  try {
    decoded = atob(after);
  } catch {
    // Not base64: rejected below like any other foreign string.
  }
  const digits = decoded.startsWith(PREFIX) ? decoded.slice(PREFIX.length) : '';
  const offset = /^(0|[1-9][0-9]*)$/.test(digits) ? Number(digits) : NaN;
  // Only the exact text this API hands out is a cursor.
  if (!Number.isSafeInteger(offset) || encodeCursor(offset) !== after) throw errors.badArgument('after', 'a cursor from this API');
  return offset + 1;
}
