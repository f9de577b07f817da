/** A build error that names the file, the field and what was expected (Hugo's FileError). */
export class FileError extends Error {
  readonly file: string;
  readonly field: string;
  constructor(file: string, field: string, expected: string) {
    super(`${file}: ${field ? `field "${field}" ` : ''}${expected}`);
    this.file = file;
    this.field = field;
  }
}
