import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyBytes, fileAnswer } from '../app/file-answer.ts';
import type { RateDecision } from '../app/policies/rate-limit.ts';
import type { Found, PublishedFiles } from '../app/published.ts';

/**
 * Node's fast path: a published file written straight to the socket, no Web Request or Response
 * made. The answer is the app's own (src/app/file-answer.ts); only the writing differs.
 */
export function serveFile(req: IncomingMessage, res: ServerResponse, found: Found, files: PublishedFiles, rate: RateDecision | undefined): void | Promise<void> {
  const file = files.coded(found.file, req.headers['accept-encoding']);
  if (file instanceof Promise) return file.then((f) => serveAs(req, res, { ...found, file: f }, files, rate));
  return serveAs(req, res, file === found.file ? found : { ...found, file }, files, rate);
}

function serveAs(req: IncomingMessage, res: ServerResponse, found: Found, files: PublishedFiles, rate: RateDecision | undefined): void | Promise<void> {
  const h = req.headers;
  const answer = fileAnswer(found, { method: req.method ?? 'GET', acceptEncoding: h['accept-encoding'], ifNoneMatch: h['if-none-match'], range: h.range, ifRange: h['if-range'] as string | undefined }, rate);
  const { body } = answer;
  // Headers go once the bytes are in hand: a file that cannot be read is still a clean 500.
  const send = (bytes?: Uint8Array | string) => void res.writeHead(answer.status, answer.headers).end(bytes);
  if (!body) return send();
  if ('text' in body) return send(body.text);
  const bytes = bodyBytes(body, files.body);
  return bytes instanceof Uint8Array ? send(bytes) : bytes.then(send);
}
