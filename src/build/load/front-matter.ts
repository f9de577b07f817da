import { FileError } from '../file-error.ts';

/** Typed readers over a parsed front-matter object; each failure names file and field. */
export class Fields {
  readonly file: string;
  readonly data: Record<string, unknown>;
  constructor(file: string, data: Record<string, unknown>, allowed: readonly string[]) {
    this.file = file;
    this.data = data;
    for (const key of Object.keys(data)) {
      if (!allowed.includes(key)) throw new FileError(file, key, `is not a known field (allowed: ${allowed.join(', ')})`);
    }
  }

  fail(field: string, expected: string): never {
    throw new FileError(this.file, field, expected);
  }

  string(field: string): string {
    const v = this.data[field];
    if (typeof v !== 'string' || v.trim() === '') this.fail(field, 'must be a non-empty string');
    return v.trim();
  }

  optionalString(field: string): string | undefined {
    return this.data[field] === undefined ? undefined : this.string(field);
  }

  boolean(field: string, fallback: boolean): boolean {
    const v = this.data[field];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(field, 'must be true or false');
    return v;
  }

  /** YAML may give a Date or a string; either must be a valid ISO 8601 date or timestamp. */
  timestamp(field: string): string {
    const v = this.data[field];
    const date = v instanceof Date ? v : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? new Date(v) : undefined;
    if (!date || Number.isNaN(date.getTime())) this.fail(field, 'must be an ISO 8601 date or timestamp, e.g. 2026-01-31T08:00:00Z');
    return date.toISOString().replace('.000Z', 'Z');
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
