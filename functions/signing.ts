/**
 * Event signatures: HMAC-SHA256, keyed with the UTF-8 bytes of the configured secret, over
 * the UTF-8 bytes of JSON.stringify of the payload without `signature` (keys in the order sent).
 */
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function key(secret: string): Promise<CryptoKey> {
  let k = keys.get(secret);
  if (!k) {
    k = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, k);
  }
  return k;
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function signPayload<T extends Record<string, unknown>>(payload: T, secret: string): Promise<T & { signature: string }> {
  const { signature: _, ...rest } = payload;
  const mac = await crypto.subtle.sign('HMAC', await key(secret), encoder.encode(JSON.stringify(rest)));
  return { ...(rest as T), signature: `sha256=${hex(mac)}` };
}

export async function verifyPayload(payload: Record<string, unknown>, secret: string): Promise<boolean> {
  const { signature, ...rest } = payload;
  if (typeof signature !== 'string' || !signature.startsWith('sha256=')) return false;
  const expected = await signPayload(rest, secret);
  return expected.signature === signature;
}
