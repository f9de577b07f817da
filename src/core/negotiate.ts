import type { Format } from './formats.ts';

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [media, ...params] = part.trim().split(';');
    const [type, subtype] = (media ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim() === 'q') q = Math.min(1, Math.max(0, Number(v) || 0));
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * The offered format the client prefers: highest quality, then the most specific match
 * (so `application/json, *\/*` means JSON), then the order offered. No Accept, or nothing
 * acceptable, gives the first offer.
 */
export function negotiate<F extends Format>(accept: string | null, offers: readonly F[]): F {
  if (!accept) return offers[0]!;
  const ranges = parseAccept(accept);
  let best: { offer: F; q: number; specificity: number } | undefined;
  for (const offer of offers) {
    const [type, subtype] = offer.mediaType.split('/');
    let match: { q: number; specificity: number } | undefined;
    for (const r of ranges) {
      const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' ? 0 : -1;
      if (specificity >= 0 && (!match || specificity > match.specificity)) match = { q: r.q, specificity };
    }
    if (match && match.q > 0 && (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity))) {
      best = { offer, ...match };
    }
  }
  return best?.offer ?? offers[0]!;
}
