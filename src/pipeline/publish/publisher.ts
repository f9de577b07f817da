import { variantWriter } from './file-variants.ts';
import type { QueryShape } from '../../core/params.ts';
import { answerFile } from './answer-file.ts';

/** An answer published as a file: the request it answers (path + canonical query) and how to serve it. */
export interface PublishedAnswer {
  path: string;
  /** Canonical query (src/core/params.ts), '' for none. */
  query: string;
  /** The route's query shape: which parameters select among this path's answers. */
  shape: QueryShape;
  file: string;
  type: string;
  cacheControl: string;
  /** Headers the answer carries besides type and caching (the API catalog's Link). */
  headers?: Record<string, string>;
}

/** Where emitted files go: a folder on disk, or memory for tests (Hugo's Publisher, Pagefind's getFiles). */
export interface Publisher {
  /** A file served at its own path. */
  write(sitePath: string, content: string): Promise<void>;
  /** An answer to a request, at the file `answerFile` names. */
  answer(answer: Omit<PublishedAnswer, 'file'>, content: string): Promise<void>;
}

/**
 * A folder on disk; each file is written with its precompressed variants and its facts recorded (by
 * `files`, when the caller has a writer already), and each answer handed to `published` as it is
 * made (the answers step's log: answers-log.ts). Its own writer codes on one thread: the answers
 * step runs beside Astro and the indexing, and a thread per core added about 130 MB to its peak in a
 * clean build.
 */
export function diskPublisher(dir: string, published: (answer: PublishedAnswer) => void, files = variantWriter(dir, undefined, { codingThreads: 1 })): Publisher & { published: (answer: PublishedAnswer) => void; files: ReturnType<typeof variantWriter> } {
  // Everything emitted here is text (answers, Markdown, feeds, sitemaps, skills).
  const write = (sitePath: string, content: string) => files.add(sitePath, content, true);
  // The answers of one path (they come path by path) by what they are served as: a query whose answer
  // is another query's, to the byte and header (a post's `lang=fr&fallback=en` and `lang=fr` when the
  // translation is available), shares its file. A fifth of the answers: so many files less to write
  // and link, and the manifest points both at one file. A static host gets each at its own name
  // (sharedAnswerNames, src/pipeline/targets/static.ts).
  let path = '';
  const fileOf = new Map<string, string>();
  return {
    published,
    files,
    write,
    async answer(answer, content) {
      if (answer.path !== path) fileOf.clear();
      path = answer.path;
      const served = `${answer.type}\n${answer.cacheControl}\n${JSON.stringify(answer.headers ?? {})}\n${content}`;
      let file = answer.query ? fileOf.get(served) : undefined;
      if (!file) {
        file = answerFile(answer.path, answer.query, answer.type);
        await write(file, content);
        fileOf.set(served, file);
      }
      published({ ...answer, file });
    },
  };
}

export function memoryPublisher(): Publisher & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    async write(sitePath, content) {
      files.set(sitePath, content);
    },
    async answer(answer, content) {
      files.set(answerFile(answer.path, answer.query, answer.type), content);
    },
  };
}
