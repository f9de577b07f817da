import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ManifestFile } from '../publish/manifest.ts';
import { isCompressible } from '../publish/manifest.ts';
import { CORS_HEADERS } from './policies/cors.ts';
import { SECURITY_HEADERS } from './policies/security.ts';
import { matchesIfNoneMatch } from './policies/etag.ts';
import { rateHeaders, type RateDecision } from './policies/rate-limit.ts';
import { chooseEncoding, encodedEtag, type Encoding } from './encoding.ts';
import type { Found, PublishedFiles } from './published.ts';

type Headers = Record<string, string>;

const POLICY_HEADERS: Headers = { ...CORS_HEADERS, ...SECURITY_HEADERS };
const isJson = (type: string) => /[/+]json\b/.test(type);
/** Byte ranges for what is not compressed (media): text is small and goes whole. */
const rangeable = (file: ManifestFile) => !isCompressible(file.type);

/** Response headers per file, coding and negotiation, built once: a hit only copies a reference. */
const prepared = new WeakMap<ManifestFile, Map<string, { ok: Headers; notModified: Headers }>>();

function headersFor(file: ManifestFile, encoding: Encoding, negotiated: boolean): { ok: Headers; notModified: Headers } {
  let byVariant = prepared.get(file);
  if (!byVariant) prepared.set(file, (byVariant = new Map()));
  const variant = `${encoding}${negotiated ? '+' : ''}`;
  let h = byVariant.get(variant);
  if (!h) {
    const compressible = file.br !== undefined || file.gzip !== undefined;
    const vary = [...(negotiated ? ['Accept'] : []), ...(compressible ? ['Accept-Encoding'] : [])].join(', ');
    const etag = encodedEtag(file.etag, encoding);
    const common: Headers = { ...POLICY_HEADERS, etag, 'cache-control': file.cacheControl, ...(vary ? { vary } : {}) };
    const length = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gzip! : file.length;
    h = {
      ok: {
        ...common,
        'content-type': file.type,
        'content-length': String(length),
        ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        ...(rangeable(file) ? { 'accept-ranges': 'bytes' } : {}),
        ...file.headers,
      },
      notModified: common,
    };
    byVariant.set(variant, h);
  }
  return h;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range); null when unsatisfiable, undefined when not one range. */
function parseRange(header: string, size: number): [number, number] | null | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Number(m[2]);
    return n === 0 ? null : [Math.max(0, size - n), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || end < start ? null : [start, end];
}

/**
 * Writes a published file as the answer: precomputed headers, 304 by string comparison, HEAD,
 * br/gzip made at build time, single byte ranges for media, and the rate-limit headers on JSON.
 */
export function serveFile(req: IncomingMessage, res: ServerResponse, found: Found, files: PublishedFiles, rate: RateDecision | undefined): void | Promise<void> {
  const { file } = found;
  const encoding = chooseEncoding(req.headers['accept-encoding'], { br: file.br !== undefined, gzip: file.gzip !== undefined });
  const prepared = headersFor(file, encoding, found.negotiated);
  const limited = rate && isJson(file.type);
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && found.status === undefined && matchesIfNoneMatch(inm, encodedEtag(file.etag, encoding))) {
    res.writeHead(304, limited ? { ...prepared.notModified, ...rateHeaders(rate) } : prepared.notModified);
    res.end();
    return;
  }
  let headers = limited ? { ...prepared.ok, ...rateHeaders(rate) } : prepared.ok;
  let status: number = found.status ?? 200;
  let range: [number, number] | undefined;
  const rangeHeader = req.headers.range;
  if (rangeHeader !== undefined && status === 200 && rangeable(file) && (req.headers['if-range'] === undefined || req.headers['if-range'] === file.etag)) {
    const r = parseRange(rangeHeader, file.length);
    if (r === null) {
      res.writeHead(416, { ...POLICY_HEADERS, 'content-range': `bytes */${file.length}`, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('Range not satisfiable\n');
      return;
    }
    if (r) {
      range = r;
      status = 206;
      headers = { ...headers, 'content-range': `bytes ${r[0]}-${r[1]}/${file.length}`, 'content-length': String(r[1] - r[0] + 1) };
    }
  }
  if (req.method === 'HEAD') {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const write = (body: Uint8Array) => {
    res.writeHead(status, headers);
    res.end(range ? body.subarray(range[0], range[1] + 1) : body);
  };
  const body = files.body(file, encoding);
  if (body instanceof Uint8Array) return write(body);
  return body.then(write);
}
