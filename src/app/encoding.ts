/** Content-coding choice and the validators of encoded representations. */
export type Encoding = 'br' | 'gzip' | 'identity';

const parsed = new Map<string, { br: number; gzip: number }>();

function qualities(header: string): { br: number; gzip: number } {
  let hit = parsed.get(header);
  if (hit) return hit;
  let br = 0;
  let gzip = 0;
  let star = -1;
  for (const part of header.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k === 'q') q = Math.min(1, Math.max(0, Number(v) || 0));
    }
    if (token === 'br') br = q;
    else if (token === 'gzip' || token === 'x-gzip') gzip = q;
    else if (token === '*') star = q;
  }
  if (star >= 0) {
    if (!/\bbr\b/i.test(header)) br = star;
    if (!/\bgzip\b/i.test(header)) gzip = star;
  }
  hit = { br, gzip };
  // Clients send few distinct headers; the bound keeps a hostile variety from growing the map.
  if (parsed.size > 256) parsed.clear();
  parsed.set(header, hit);
  return hit;
}

/** Brotli when accepted (it is smaller), else gzip, else identity; `available` says which exist. */
export function chooseEncoding(header: string | undefined, available: { br: boolean; gzip: boolean }): Encoding {
  if (!header || (!available.br && !available.gzip)) return 'identity';
  const q = qualities(header);
  const br = available.br ? q.br : 0;
  const gzip = available.gzip ? q.gzip : 0;
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/** Each coding is its own representation, so its own strong validator: `"<hash>-br"`, `"<hash>-gz"`. */
export function encodedEtag(etag: string, encoding: Encoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
}
