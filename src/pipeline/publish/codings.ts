import { Piscina } from 'piscina';
import { brotliCompressSync, constants } from 'node:zlib';

/**
 * The precompressed variants a build makes of a text body: br alone. A client that takes gzip and
 * not br gets the gzip coding made by the host that serves it, with the settings builds stored `.gz`
 * copies with (src/artefact/gzip-coding.ts): the same bytes. Storing it took a third of a build's
 * files and, at 300 x 14, 3.3 s of CPU of gzip for what few clients ask (every browser takes br).
 */
export const CODINGS = [
  { ext: 'br', key: 'br', code: (body: Uint8Array) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }) },
] as const;
export type CodingExt = (typeof CODINGS)[number]['ext'];

interface Task {
  body: Uint8Array;
  exts: CodingExt[];
}

/** In a pool thread: the asked-for codings of one body, in the order asked. */
export default function code({ body, exts }: Task): Uint8Array[] {
  return exts.map((ext) => CODINGS.find((c) => c.ext === ext)!.code(body));
}

/**
 * Codings made by zlib's one-shot calls on `threads` threads of their own. Measured at 1,000 x 14
 * (56,000 bodies, 613 MB): zlib's asynchronous calls, which hand a body to libuv's pool in 16 KiB
 * steps, took 1.2x (brotli) and 1.8x (gzip) the CPU of the one-shot calls; the build is CPU-bound.
 */
export function codingPool(threads: number) {
  // Started on the first body: a build that codes nothing (all from the cache) starts no thread.
  let pool: Piscina<Task, Uint8Array[]> | undefined;
  return {
    code(body: Uint8Array, exts: CodingExt[]): Promise<Uint8Array[]> {
      // Idle threads do not keep the process alive (Piscina unrefs them).
      pool ??= new Piscina({ filename: import.meta.url, minThreads: threads, maxThreads: threads, idleTimeout: Infinity });
      return pool.run({ body, exts });
    },
  };
}
