import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PUBLISH } from '../../src/artefact/roots.ts';
import { liveManifest, publishedRequests } from '../helpers/manifest.ts';
import { useServer } from '../helpers/server.ts';
import { serveFolder } from '../helpers/host-function.ts';

// The Netlify output run by @netlify/dev (Netlify's own emulation of its request chain: edge
// functions on Deno, then functions, rules and static files), offline: its API address is a closed
// loopback port. `handleAndIntrospect` names the layer that answered each request, so the tests
// see which reads reach the serverless function. Every answer is compared with `npm start`'s.
const SITE = join(PUBLISH.out, 'netlify');
// Installed apart from the main lock, in .ci/netlify-dev (its package.json says why), by .ci/run.
const PREFIX = resolve('.ci/netlify-dev');
const BIN = join(PREFIX, 'node_modules/.bin');
const NETLIFY_DEV = join(PREFIX, 'node_modules/@netlify/dev/dist/main.js');
const EDGE_DEV = join(PREFIX, 'node_modules/@netlify/edge-functions-dev/dist/node/main.js');
const skip = !existsSync(join(SITE, 'netlify.toml'))
  ? `${SITE} is absent: run \`npm run build -- --target netlify\``
  : !existsSync(join(BIN, 'deno')) || !existsSync(NETLIFY_DEV)
    ? '@netlify/dev and deno are not installed: npm install --prefix .ci/netlify-dev --no-package-lock'
    : process.env.FOLIO_NETLIFY_DEV !== '1'
      ? 'run alone by `npm run test:netlify` (npm test runs it after the other suites: its Deno and function workers are heavy beside them)'
      : false;
// The build's rate limit (its documents state it), each request from its own client (TRUST_PROXY) so none is refused.
const node = useServer({ TRUST_PROXY: '1', EVENT_SIGNING_SECRET: 'netlify-test' });
let clients = 0;

type Layer = 'edge-function' | 'function' | 'image' | 'redirect' | 'server' | 'static';
interface Dev {
  handleAndIntrospect(request: Request): Promise<{ response: Response; type: Layer } | undefined>;
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

type ConfigsOf = (port: number, functions: Record<string, string>) => Promise<unknown>;

/**
 * @netlify/edge-functions-dev 2.0.1 asks its Deno server for the edge functions' configs on every
 * request, and Deno reads them in a new Worker it never terminates: 5 to 8 MB a request, 9 GB by
 * this suite's 1,000th (the "out of memory" of earlier runs). The configs cannot change during a
 * run (a deploy reads them once): each set of functions is asked for once.
 */
async function askConfigsOnce(): Promise<void> {
  const { EdgeFunctionsHandler } = (await import(pathToFileURL(EDGE_DEV).href)) as { EdgeFunctionsHandler: { prototype: { getFunctionConfigs: ConfigsOf } } };
  const ask = EdgeFunctionsHandler.prototype.getFunctionConfigs;
  const asked = new Map<string, Promise<unknown>>();
  EdgeFunctionsHandler.prototype.getFunctionConfigs = function (this: unknown, port, functions) {
    const key = `${port} ${JSON.stringify(functions)}`;
    if (!asked.has(key)) asked.set(key, ask.call(this, port, functions));
    return asked.get(key)!;
  };
}

/** Deno processes running this checkout's deno (the edge functions' runtime, detached from us), by PID. */
function denoProcesses(): Set<number> {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return new Set(out.split('\n').map((l) => l.trim()).filter((l) => l.includes(`${join(PREFIX, 'node_modules/deno/deno')} `)).map((l) => Number(l.split(' ')[0])));
}

describe('Netlify output under @netlify/dev', { skip }, () => {
  let dev: Dev;
  let cdn: Awaited<ReturnType<typeof serveFolder>> | undefined;
  let earlier = new Set<number>();
  before(async () => {
    earlier = denoProcesses();
    process.env.PATH = `${BIN}${delimiter}${process.env.PATH}`;
    process.env.EVENT_SIGNING_SECRET = 'netlify-test';
    // The function reads its build from the site's static files; @netlify/dev runs here without its
    // HTTP server, so a loopback server of the same files stands in for Netlify's CDN.
    cdn = await serveFolder(join(SITE, 'static'));
    process.env.FOLIO_ARTEFACT_URL = cdn.url;
    await askConfigsOnce();
    const { NetlifyDev } = (await import(pathToFileURL(NETLIFY_DEV).href)) as unknown as { NetlifyDev: new (o: object) => Dev };
    const off = { enabled: false };
    dev = new NetlifyDev({ projectRoot: SITE, apiURL: 'http://127.0.0.1:9', skipGitignore: true, blobs: off, database: off, aiGateway: off, images: off, geolocation: off, environmentVariables: off, server: off });
    await dev.start();
  });
  /** The Deno processes @netlify/dev started (on the first request an edge function matched). */
  const started = () => [...denoProcesses()].filter((pid) => !earlier.has(pid));
  after(async () => {
    // Stopped by PID first: @netlify/dev's stop waits for its Deno child otherwise.
    for (const pid of started()) process.kill(pid);
    await dev?.stop();
    await cdn?.close();
  });

  /** The answer of Netlify's chain and the layer that gave it, beside Node's. */
  async function both(target: string, init: RequestInit = {}) {
    const headers = { 'accept-encoding': 'identity', ...(init.headers as Record<string, string> | undefined) };
    const got = await dev.handleAndIntrospect(new Request(`http://localhost${target}`, { ...init, headers }));
    assert.ok(got, `${target}: no layer answered`);
    const client = ++clients;
    const viaNode = await fetch(node.url + target, { ...init, headers: { ...headers, 'x-forwarded-for': `10.${client >> 16}.${(client >> 8) & 255}.${client & 255}` }, redirect: 'manual' });
    return { layer: got.type, netlify: got.response, node: viaNode };
  }

  async function sameAnswer(what: string, netlify: Response, viaNode: Response, headers = ['content-type', 'cache-control']) {
    // Both bodies are read before any assertion: an unread one from the function holds its socket
    // open, and the test process then never exits.
    const [got, expected] = [await netlify.text(), await viaNode.text()];
    assert.equal(netlify.status, viaNode.status, `status of ${what}`);
    for (const h of headers) assert.equal(netlify.headers.get(h), viaNode.headers.get(h), `${h} of ${what}`);
    assert.equal(got, expected, what);
  }

  test('every published page, feed, document and JSON answer comes from the CDN (a file, or a rule to it), never a function', async () => {
    const manifest = await liveManifest();
    let requests = 0;
    const wrong: string[] = [];
    // Every answer the CDN serves as it is; of those an edge function rewrites (an agent's Accept on a
    // page), one in ten: the local Deno runtime grows with each rewrite it passes on.
    let edge = 0;
    for (const { target, accept } of publishedRequests(manifest)) {
      if (accept !== undefined && accept !== 'text/html' && edge++ % 10 !== 0) continue;
      // Netlify does not canonicalise query strings: a rule matches its parameters in any order.
      const [path, query] = target.split('?');
      const reordered = query ? `${path}?${query.split('&').reverse().join('&')}` : target;
      const { layer, netlify, node: viaNode } = await both(reordered, accept ? { headers: { accept } } : {});
      const negotiatedAway = accept !== undefined && accept !== 'text/html';
      const allowed: Layer[] = negotiatedAway || path === '/api' || path === '/sandbox/api' ? ['edge-function'] : ['static', 'redirect'];
      const what = `${reordered} (${accept ?? 'no Accept'})`;
      if (!allowed.includes(layer)) wrong.push(`${what}: the ${layer} layer answered`);
      await sameAnswer(what, netlify, viaNode).catch((e: Error) => wrong.push(e.message.split('\n')[0]!));
      requests++;
    }
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} of ${requests} published answers differ`);
    assert.ok(requests > 1000, `${requests} published answers`);
  });

  test('computed answers reach the function: other query values, search, GraphQL, /status', async () => {
    const graphql = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ posts(first: 2) { edges { node { slug } } } }' }) };
    for (const [target, init] of [
      ['/api/posts?per_page=3'],
      ['/api/posts?lang=FR'],
      ['/api/posts?page=1&lang=fr&per_page=5'],
      ['/api/posts/the-slow-web?lang=xx'],
      ['/api/search?q=tide'],
      ['/search?q=tide'],
      ['/sandbox/api/search?q=tide'],
      ['/graphql', graphql],
    ] as [string, RequestInit?][]) {
      const { layer, netlify, node: viaNode } = await both(target, init);
      assert.equal(layer, 'function', target);
      await sameAnswer(target, netlify, viaNode);
    }
    const status = await both('/status');
    assert.equal(status.layer, 'function');
    assert.equal(status.netlify.status, 200);
    const { status: ok, host } = (await status.netlify.json()) as { status: string; host: string };
    assert.deepEqual({ ok, host }, { ok: 'ok', host: 'netlify' });
    await status.node.body?.cancel();
    // What the function read of its build (manifest, catalogs, indexes) are the site's static files on Netlify's chain too: no read invokes a function.
    const reads = [...new Set(cdn!.asked)];
    assert.ok(reads.some((p) => /^\/_folio\/a\/[0-9a-f]{32}\/manifest\.json$/.test(p)), 'the manifest was read from the CDN');
    for (const path of reads) {
      const got = await dev.handleAndIntrospect(new Request(`http://localhost${path}`));
      await got?.response.body?.cancel();
      assert.equal(got?.type, 'static', path);
      assert.equal(got?.response.status, 200, path);
    }
  });

  test('edge functions: the bearer 401 only when Authorization is sent, the preflight, negotiation', async () => {
    const bearer = await both('/api/posts', { headers: { authorization: 'Bearer x' } });
    assert.equal(bearer.layer, 'edge-function');
    assert.equal(bearer.netlify.status, 401);
    assert.match(bearer.netlify.headers.get('www-authenticate')!, /^Bearer error="invalid_token", resource_metadata="http:\/\/localhost(:\d+)?\/\.well-known\/oauth-protected-resource"$/);
    assert.equal(bearer.netlify.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await bearer.netlify.json(), await bearer.node.json());
    // Another scheme is not a bearer token: the CDN serves the read.
    const basic = await both('/api/posts', { headers: { authorization: 'Basic eDp5' } });
    assert.equal(basic.layer, 'edge-function');
    await sameAnswer('/api/posts with Basic', basic.netlify, basic.node);
    const options = await both('/api/posts', { method: 'OPTIONS' });
    assert.equal(options.layer, 'edge-function');
    assert.equal(options.netlify.status, 204);
    for (const h of ['access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age']) assert.equal(options.netlify.headers.get(h), options.node.headers.get(h), h);
    // A browser's Accept never runs the negotiation.
    const page = await both('/the-slow-web', { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    assert.equal(page.layer, 'static');
    assert.match(page.netlify.headers.get('vary') ?? '', /\bAccept\b/);
    await sameAnswer('/the-slow-web for a browser', page.netlify, page.node);
  });

  test('the edge functions run on a Deno child (stopped by its PID after the suite)', async () => {
    assert.ok(started().length > 0, 'the edge functions run on Deno');
  });
});
