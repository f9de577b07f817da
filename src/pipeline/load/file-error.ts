/**
 * A content error: `file:line: field: what is wrong, e.g. what would be right` (Hugo's FileError),
 * one line, the file named as the author would open it.
 */
export class FileError extends Error {
  readonly file: string;
  readonly field: string;
  readonly line: number | undefined;
  constructor(file: string, field: string, expected: string, line?: number) {
    super(`${file}${line ? `:${line}` : ''}: ${field ? `${field}: ` : ''}${expected}`);
    this.file = file;
    this.field = field;
    this.line = line;
  }
}

/** Every content error of a build, reported together (one line each). */
export class ContentErrors extends Error {
  readonly errors: FileError[];
  constructor(errors: FileError[]) {
    super(`${errors.length} content error${errors.length > 1 ? 's' : ''}:\n${errors.map((e) => e.message).join('\n')}`);
    this.errors = errors;
  }
}

/** The line a front-matter field is written on (1-based), or the front matter's first line. */
export function lineOf(raw: string, field: string): number {
  const lines = raw.split(/\r?\n/);
  const end = lines.indexOf('---', 1);
  const at = lines.slice(0, end < 0 ? lines.length : end).findIndex((l) => new RegExp(`^${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`).test(l));
  return at < 0 ? 1 : at + 1;
}
