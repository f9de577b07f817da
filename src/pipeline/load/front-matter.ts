import { ContentErrors, FileError, lineOf } from './file-error.ts';

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A date or timestamp as written, checked against the calendar (2026-02-30 is refused, not moved to
 * March); without a zone it is UTC. The front matter is read without YAML's timestamp type, so an
 * unquoted date arrives as the text the author wrote.
 */
export function calendarTimestamp(text: string): string | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => (v === undefined ? undefined : Number(v))) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > (month === 2 && leap(year!) ? 29 : DAYS[month! - 1]!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8] ?? 'Z';
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ?? ''}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace('.000Z', 'Z');
}

/**
 * Typed readers over a parsed front-matter object; each failure names file, line and field. A
 * reader throws at its first failure; `collect` keeps reading past one, so every field's error in
 * the file is reported together (`check` throws them).
 */
export class Fields {
  readonly file: string;
  readonly data: Record<string, unknown>;
  private readonly raw: string;
  private readonly errors: FileError[] = [];
  constructor(file: string, data: Record<string, unknown>, allowed: readonly string[], raw = '') {
    this.file = file;
    this.data = data;
    this.raw = raw;
    for (const key of Object.keys(data)) {
      if (!allowed.includes(key)) this.collect(() => this.fail(key, `is not a known field (allowed: ${allowed.join(', ')})`), undefined);
    }
  }

  fail(field: string, expected: string): never {
    throw new FileError(this.file, field, expected, field ? lineOf(this.raw, field) : undefined);
  }

  /** A read whose failure is recorded (the fallback stands in for the value) rather than thrown. */
  collect<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      this.errors.push(e);
      return fallback;
    }
  }

  /** Every error recorded so far, in the order of the file's lines. */
  check(): void {
    if (this.errors.length === 0) return;
    throw new ContentErrors([...this.errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  }

  string(field: string): string {
    const v = this.data[field];
    if (typeof v !== 'string' || v.trim() === '') this.fail(field, `must be a non-empty string, e.g. ${field}: "Some text"`);
    return v.trim();
  }

  optionalString(field: string): string | undefined {
    return this.data[field] === undefined ? undefined : this.string(field);
  }

  boolean(field: string, fallback: boolean): boolean {
    const v = this.data[field];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(field, `must be true or false, e.g. ${field}: true`);
    return v;
  }

  /** A real calendar date or timestamp in ISO 8601, quoted or not. */
  timestamp(field: string): string {
    const v = this.data[field];
    const at = typeof v === 'string' ? calendarTimestamp(v) : undefined;
    if (!at) this.fail(field, `must be a real date or timestamp in ISO 8601, e.g. ${field}: 2026-01-31T08:00:00Z${typeof v === 'string' || typeof v === 'number' ? ` (got ${JSON.stringify(v)})` : ''}`);
    return at;
  }

  optionalTimestamp(field: string): string | undefined {
    return this.data[field] === undefined ? undefined : this.timestamp(field);
  }

  stringList(field: string): string[] {
    const v = this.data[field];
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x.trim() !== '')) {
      this.fail(field, 'must be a list of non-empty strings, e.g. [Technology, Craft]');
    }
    return [...new Set(v.map((x: string) => x.trim()))];
  }
}
