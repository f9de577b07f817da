import { createHash } from 'node:crypto';

/**
 * The identity of an English source a translation was made from: title and body, with line
 * endings and outer white space normalised so that re-saving a file does not make it stale.
 */
export function sourceHash(title: string, body: string): string {
  const normal = `${title.trim()}\n\n${body.replace(/\r\n?/g, '\n').trim()}`;
  return `sha256:${createHash('sha256').update(normal, 'utf8').digest('hex')}`;
}
