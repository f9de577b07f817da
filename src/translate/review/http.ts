import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ContentErrors, FileError } from '../../pipeline/load/file-error.ts';
import { loadAll, loadPages } from '../translation-status.ts';
import { gitUserName, reviewDate } from '../reviewer.ts';
import { indexPage, reviewPage, summaryText } from './page.ts';
import { ReviewError, approveSegment, reviewIndex, reviewView } from './review.ts';

/**
 * `/_review/` on the server `npm run dev` starts (FOLIO_REVIEW_TOKEN set by scripts/dev.ts): the
 * review pages and their one write, only for this machine. Every request must come from a
 * loopback address and name a loopback host (a page on another site rebinding its name to
 * 127.0.0.1 is refused too); a save must also come from the review page itself: same origin
 * (Origin and Sec-Fetch-Site, when the browser sends them) and the session's token, which the
 * page carries and no other site can read.
 */
export const REVIEW_PREFIX = '/_review';
const BODY_LIMIT = 256 * 1024;

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
const ASSETS: Record<string, { body: string; type: string }> = {
  'review.js': { body: asset('review.js'), type: 'text/javascript; charset=utf-8' },
  'review.css': { body: asset('review.css'), type: 'text/css; charset=utf-8' },
};

const SECURITY = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

export const isLoopbackAddress = (address: string | undefined) => !!address && (address === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address));
export const isLoopbackHost = (host: string | undefined) => !!host && /^(?:localhost|[a-z0-9.-]+\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d{1,5})?$/i.test(host);

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...SECURITY, 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
const refuse = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { error: message }, headers);

/** Why a save may not come from where it comes (another site, no or a wrong token), or undefined. */
export function crossSiteRefusal(req: IncomingMessage, token: string): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `a save from another site is refused (Sec-Fetch-Site: ${site})`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return `a save from another origin is refused (Origin: ${origin})`;
  const given = Buffer.from(String(req.headers['x-review-token'] ?? ''));
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'no or a wrong review token (X-Review-Token): reload the review page';
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The approval a save's body holds, or why it is not one. */
function approvalOf(body: string): { index: number; text: string; by: string; checksum: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  const v = value as Record<string, unknown>;
  if (!v || typeof v !== 'object') return 'the body must be a JSON object';
  if (!Number.isInteger(v.index)) return '"index" must be the segment\'s number (from 0)';
  if (typeof v.text !== 'string' || v.text.length > BODY_LIMIT) return '"text" must be the segment\'s translation';
  if (typeof v.checksum !== 'string') return '"checksum" must be the checksum the page was loaded with';
  const by = typeof v.by === 'string' ? v.by.replace(/\s+/g, ' ').trim() : '';
  if (!by) return '"by" must name the reviewer (the name field)';
  if (by.length > 200) return '"by" is over 200 characters';
  return { index: v.index as number, text: v.text, by, checksum: v.checksum };
}

export interface ReviewRoutes {
  owns(url: string | undefined): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function reviewRoutes(options: { token: string; contentDir: string }): ReviewRoutes {
  const { token, contentDir } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!isLoopbackAddress(req.socket.remoteAddress)) return refuse(res, 403, 'the review pages answer only on this machine (a loopback address)');
    if (!isLoopbackHost(req.headers.host)) return refuse(res, 403, `the review pages answer only under a loopback name (localhost, 127.0.0.1, [::1]), not ${req.headers.host ?? 'none'}`);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const rest = path.slice(REVIEW_PREFIX.length).split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    if (rest.length === 0) {
      if (path === REVIEW_PREFIX) return send(res, 308, 'text/plain; charset=utf-8', '', { location: `${REVIEW_PREFIX}/` });
      if (method !== 'GET' && method !== 'HEAD') return refuse(res, 405, `${method} is not allowed here`, { allow: 'GET, HEAD' });
      const all = [...(await loadAll(contentDir)).map((source) => ({ source, kind: 'post' as const })), ...(await loadPages(contentDir)).map((source) => ({ source, kind: 'page' as const }))];
      return send(res, 200, 'text/html; charset=utf-8', indexPage(await reviewIndex(contentDir, all)));
    }
    if (rest.length === 1 && ASSETS[rest[0]!]) {
      const a = ASSETS[rest[0]!]!;
      return send(res, 200, a.type, a.body);
    }
    if (rest.length !== 2) return refuse(res, 404, `no review page at ${path} (/_review/<slug>/<lang>)`);
    const [slug, lang] = rest as [string, string];
    if (method === 'GET' || method === 'HEAD') {
      const view = await reviewView(contentDir, slug, lang);
      return send(res, 200, 'text/html; charset=utf-8', reviewPage(view, token, gitUserName(contentDir)));
    }
    if (method !== 'POST') return refuse(res, 405, `${method} is not allowed here`, { allow: 'GET, HEAD, POST' });
    const refusal = crossSiteRefusal(req, token);
    if (refusal) return refuse(res, 403, refusal);
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(res, 415, 'a save is JSON (Content-Type: application/json)');
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413, `a save is at most ${BODY_LIMIT} bytes`);
    const approval = approvalOf(body);
    if (typeof approval === 'string') return refuse(res, 400, approval);
    const view = await approveSegment(contentDir, slug, lang, { ...approval, at: reviewDate() });
    return sendJson(res, 200, { ...view, summary: summaryText(view) });
  };
  return {
    owns: (url) => url === REVIEW_PREFIX || (url ?? '').startsWith(`${REVIEW_PREFIX}/`) || (url ?? '').startsWith(`${REVIEW_PREFIX}?`),
    handle: async (req, res) => {
      try {
        await handle(req, res);
      } catch (e) {
        if (res.headersSent) return void res.destroy();
        if (e instanceof ReviewError) return refuse(res, e.status, e.message);
        // A content error in the post (the loader's): the author's to fix, said as it is.
        if (e instanceof ContentErrors || e instanceof FileError) return refuse(res, 409, `the content has errors: ${e.message.split('\n')[0]}`);
        console.error(`review: ${(e as Error).stack ?? e}`);
        refuse(res, 500, 'the review failed (see the terminal)');
      }
    },
  };
}
