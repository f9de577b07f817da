/**
 * Strong validator from the bytes (the first 27 characters of the base64url SHA-256), so the same
 * answer has the same ETag on every path that serves it: published file, cached or computed answer.
 */
export async function etagOf(body: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').slice(0, 27)}"`;
}
