import type { Readable } from 'node:stream';

/**
 * Hands a child process's output on to the test's stderr, each line marked with `label`. The test
 * reporter (tests/helpers/quiet-reporter.ts) keeps a passing file's output to itself and prints a
 * failing file's, so a failure shows what the server or service it ran against said.
 */
export function passOn(stream: Readable, label: string): void {
  let partial = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    if (lines.length) process.stderr.write(lines.map((l) => `[${label}] ${l}\n`).join(''));
  });
  stream.on('end', () => partial && process.stderr.write(`[${label}] ${partial}\n`));
}
