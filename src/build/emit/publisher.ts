import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { QueryShape } from '../../core/params.ts';

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

const EXTENSIONS: [RegExp, string][] = [
  [/^application\/([a-z.-]+\+)?json\b/, 'json'],
  [/^text\/markdown\b/, 'md'],
  [/^text\/plain\b/, 'txt'],
];

/**
 * The file a static host serves for an answer: the path itself when it names a file
 * (`/openapi.json`), else `{path}/index.{ext}`; a query goes to `{path}/_query/{query}.{ext}`
 * (`/api/posts?lang=fr&page=2` -> `/api/posts/_query/lang=fr&page=2.json`). `_` never starts a slug.
 */
export function answerFile(path: string, query: string, type: string): string {
  const ext = EXTENSIONS.find(([re]) => re.test(type))?.[1] ?? 'bin';
  if (query) return `${path}/_query/${query}.${ext}`;
  return extname(path) ? path : `${path}/index.${ext}`;
}

export function diskPublisher(dir: string): Publisher & { count: () => number; answers: PublishedAnswer[] } {
  let n = 0;
  const answers: PublishedAnswer[] = [];
  async function write(sitePath: string, content: string) {
    const file = join(dir, sitePath);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    n++;
  }
  return {
    count: () => n,
    answers,
    write,
    async answer(answer, content) {
      const file = answerFile(answer.path, answer.query, answer.type);
      await write(file, content);
      answers.push({ ...answer, file });
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
