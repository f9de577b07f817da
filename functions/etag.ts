/**
 * Node's own hash when the runtime has it (process.getBuiltinModule, Node 22.3+): synchronous, where
 * Web Crypto's digest is a job handed to the thread pool and back, about half a millisecond a call
 * on a busy server (a third of an uncached search's time, issue 39). Workers use Web Crypto.
 */
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | typeof import('node:crypto')
  | undefined;

/**
 * Strong validator from the bytes (the first 27 characters of the base64url SHA-256), so the same
 * answer has the same ETag on every path that serves it: published file, cached or computed answer.
 */
export async function etagOf(body: Uint8Array): Promise<string> {
  if (nodeCrypto) return `"${nodeCrypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').slice(0, 27)}"`;
}
