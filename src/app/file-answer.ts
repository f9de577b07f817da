import type { ManifestFile } from '../artefact/manifest.ts';
import { isCompressible } from '../artefact/manifest.ts';
import { CORS_HEADERS } from './policies/cors.ts';
import { SECURITY_HEADERS } from './policies/security.ts';
import { matchesIfNoneMatch } from './policies/etag.ts';
import { isJson, rateHeaders, type RateDecision } from './policies/rate-limit.ts';
import { chooseEncoding, encodedEtag, type Encoding } from './encoding.ts';
import type { Found } from './published.ts';

type HeaderMap = Record<string, string>;

/** The request headers a published answer depends on (read the same way from Node and from a Web Request). */
export interface FileRequest {
  method: string;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
  range: string | undefined;
  ifRange: string | undefined;
}

/**
 * What to send for a published file: status and headers, and the body as the file in an
 * encoding (cut to a byte range), a short text, or nothing. Both writers (the app's Web Response
 * and Node's fast path) send exactly this, so they cannot differ.
 */
export interface FileAnswer {
  status: number;
  headers: HeaderMap;
  body: { file: ManifestFile; encoding: Encoding; range?: [number, number] } | { text: string } | undefined;
}

const POLICY_HEADERS: HeaderMap = { ...CORS_HEADERS, ...SECURITY_HEADERS };
/** Byte ranges for what is not compressed (media): text is small and goes whole. */
const rangeable = (file: ManifestFile) => !isCompressible(file.type);

/** Response headers per file, coding and negotiation, built once: a hit only copies a reference. */
const prepared = new WeakMap<ManifestFile, Map<string, { ok: HeaderMap; notModified: HeaderMap }>>();

function headersFor(file: ManifestFile, encoding: Encoding, negotiated: boolean): { ok: HeaderMap; notModified: HeaderMap } {
  let byVariant = prepared.get(file);
  if (!byVariant) prepared.set(file, (byVariant = new Map()));
  const variant = `${encoding}${negotiated ? '+' : ''}`;
  let h = byVariant.get(variant);
  if (!h) {
    const compressible = file.br !== undefined || file.gzip !== undefined;
    const vary = [...(negotiated ? ['Accept'] : []), ...(compressible ? ['Accept-Encoding'] : [])].join(', ');
    const etag = encodedEtag(file.etag, encoding);
    const common: HeaderMap = { ...POLICY_HEADERS, etag, 'cache-control': file.cacheControl, ...(vary ? { vary } : {}) };
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
 * A published file as the answer: precomputed headers, 304 by string comparison, HEAD, br/gzip
 * made at build time, single byte ranges for media, and the rate-limit headers on JSON.
 */
export function fileAnswer(found: Found, req: FileRequest, rate: RateDecision | undefined): FileAnswer {
  const { file } = found;
  const encoding = chooseEncoding(req.acceptEncoding, { br: file.br !== undefined, gzip: file.gzip !== undefined });
  const prepared = headersFor(file, encoding, found.negotiated);
  const limited = rate && isJson(file.type);
  if (req.ifNoneMatch !== undefined && found.status === undefined && matchesIfNoneMatch(req.ifNoneMatch, encodedEtag(file.etag, encoding))) {
    return { status: 304, headers: limited ? { ...prepared.notModified, ...rateHeaders(rate) } : prepared.notModified, body: undefined };
  }
  let headers = limited ? { ...prepared.ok, ...rateHeaders(rate) } : prepared.ok;
  let status: number = found.status ?? 200;
  let range: [number, number] | undefined;
  if (req.range !== undefined && status === 200 && rangeable(file) && (req.ifRange === undefined || req.ifRange === file.etag)) {
    const r = parseRange(req.range, file.length);
    if (r === null) {
      // Every 4xx is JSON {error}, with the rate-limit headers every JSON answer carries.
      const refused = { ...POLICY_HEADERS, 'content-range': `bytes */${file.length}`, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...(rate ? rateHeaders(rate) : {}) };
      const error = `Range not satisfiable: the file has ${file.length} bytes.`;
      return { status: 416, headers: refused, body: req.method === 'HEAD' ? undefined : { text: JSON.stringify({ error }) } };
    }
    if (r) {
      range = r;
      status = 206;
      headers = { ...headers, 'content-range': `bytes ${r[0]}-${r[1]}/${file.length}`, 'content-length': String(r[1] - r[0] + 1) };
    }
  }
  return { status, headers, body: req.method === 'HEAD' ? undefined : { file, encoding, range } };
}

/** The bytes of an answer's body: the file (from the host's reader, maybe cached) cut to its range. */
export function bodyBytes(body: { file: ManifestFile; encoding: Encoding; range?: [number, number] }, read: (file: ManifestFile, encoding: Encoding) => Uint8Array | Promise<Uint8Array>): Uint8Array | Promise<Uint8Array> {
  const cut = (bytes: Uint8Array) => (body.range ? bytes.subarray(body.range[0], body.range[1] + 1) : bytes);
  const bytes = read(body.file, body.encoding);
  return bytes instanceof Uint8Array ? cut(bytes) : bytes.then(cut);
}
