import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { PublishedAnswer } from './publisher.ts';
import type { FileFacts } from './file-variants.ts';
import type { Phase } from '../timings.ts';

/**
 * Where the answers step (its own process, beside Astro) leaves what it published for the manifest
 * step, in the build's folder (removed once read): one JSON value a line, appended as each answer
 * and each file's facts are made. Neither process holds the whole of it as one text: at 10,000 x 14
 * the one JSON document it replaces took the answers step to 2.2 GB.
 */
export const ANSWERS_FILE = 'answers-published.ndjson';

/** A line of the log: an answer, a written file's facts, or (last) the step's phase timings. */
type Line = { answer: PublishedAnswer } | { facts: [string, FileFacts] } | { phases: Phase[] };

/** Lines are kept until this many characters wait, then written in one call: memory bounded, few writes. */
const BUFFER_CHARS = 1 << 16;

/** Appends the answers step's lines to `file` (made afresh), in buffers of BUFFER_CHARS. */
export function answersLog(file: string) {
  const fd = openSync(file, 'w');
  let waiting: string[] = [];
  let chars = 0;
  const flush = () => {
    if (waiting.length > 0) writeSync(fd, waiting.join(''));
    waiting = [];
    chars = 0;
  };
  const add = (line: Line) => {
    const text = `${JSON.stringify(line)}\n`;
    waiting.push(text);
    chars += text.length;
    if (chars >= BUFFER_CHARS) flush();
  };
  return {
    answer: (answer: PublishedAnswer) => add({ answer }),
    facts: (name: string, facts: FileFacts) => add({ facts: [name, facts] }),
    /** Writes the phases as the last line and closes the file: a log without them is unfinished. */
    close(phases: Phase[]) {
      add({ phases });
      flush();
      closeSync(fd);
    },
  };
}

export type AnswersLog = ReturnType<typeof answersLog>;

/**
 * Reads a log line by line: each file's facts go to `facts` as they are read; the answers (the
 * manifest orders them all) and the phases are returned.
 */
export async function readAnswersLog(file: string, facts: (name: string, facts: FileFacts) => void): Promise<{ answers: PublishedAnswer[]; phases: Phase[] }> {
  const answers: PublishedAnswer[] = [];
  let phases: Phase[] | undefined;
  for await (const text of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    const line = JSON.parse(text) as Line;
    if ('answer' in line) answers.push(line.answer);
    else if ('facts' in line) facts(...line.facts);
    else phases = line.phases;
  }
  if (!phases) throw new Error(`${file} ends before the answers step's last line: it did not finish`);
  return { answers, phases };
}
