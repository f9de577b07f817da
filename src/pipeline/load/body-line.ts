/** The line in the file of a body's line 1: the front matter's lines before it. */
export function bodyLineOffset(raw: string, body: string): number {
  if (!raw.endsWith(body)) return 0;
  return raw.slice(0, raw.length - body.length).split('\n').length - 1;
}
