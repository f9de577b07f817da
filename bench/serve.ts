// `npm run bench:serve -- [--seconds N] [--rounds N] [--raw-node]`: Folio's Node server against nginx
// serving the same bytes from the same build, in the same run, rounds alternating between them
// (wrk -t1 -c50, medians over rounds). With --raw-node, a bare node:http server answering the detail
// JSON from memory is measured too: the ceiling for any Node fast path. nginx in front of Folio
// (`--target nginx`'s configuration, src/pipeline/targets/nginx.ts) is measured on an HTML page and a feed
// against the plain nginx on the same files (goal: >= 0.9x).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { buildLayout } from '../src/artefact/roots.ts';
import { clientFiles, readManifest } from '../src/artefact/client-files.ts';
import { mirror } from '../src/pipeline/targets/files.ts';
import { frontFiles, frontRules } from '../src/pipeline/targets/front-files.ts';
import { writeFrontCopy } from '../src/pipeline/targets/front-copy.ts';
import { nginxConf as frontConf } from '../src/pipeline/targets/nginx.ts';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism, tmpdir, userInfo } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    'raw-node': { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
  },
});
const SECONDS = Number(flags.seconds);
const ROUNDS = Number(flags.rounds);
if (!Number.isInteger(SECONDS) || SECONDS < 1 || !Number.isInteger(ROUNDS) || ROUNDS < 1) {
  throw new Error('usage: npm run bench:serve -- [--seconds N>=1] [--rounds N>=1] [--raw-node]');
}
const RAW_NODE = flags['raw-node'];
// Folio's worker threads and nginx's worker processes: the same number on both sides.
const WORKERS = Number(flags.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 1) throw new Error('--workers takes an integer >= 1');
const CONNECTIONS = 50;
const WARMUP_SECONDS = 1;

/** The executable's path: a fixed place first, then PATH. */
function findExecutable(name: string, fixed: string): string | undefined {
  for (const candidate of [fixed, ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name))]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

const NGINX = findExecutable('nginx', '/usr/sbin/nginx');
const WRK = findExecutable('wrk', '/usr/bin/wrk');
if (!NGINX || !WRK) {
  console.log(`skipped: ${NGINX ? 'wrk' : 'nginx'} not installed (apt-get install -y ${NGINX ? 'wrk' : 'nginx'})`);
  process.exit(0);
}

// --- Servers and their cleanup (normal end, errors and SIGINT) ---

const children = new Set<ChildProcess>();
let tmp: string | undefined;

function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    process.exit(130);
  });
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The last few kilobytes a child wrote, for error messages. */
function tail(child: ChildProcess): () => string {
  let text = '';
  const keep = (c: Buffer) => (text = (text + c.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });
}

/** Resolves once the child prints a line matching `ready`; rejects if it exits first or times out. */
function waitForLine(child: ChildProcess, ready: RegExp, what: string, output: () => string, ms = 120_000): Promise<void> {
  return new Promise((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start within ${ms / 1000} s\n${output()}`)), ms);
    const onData = (c: Buffer) => {
      seen += c.toString();
      if (ready.test(seen)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        done();
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited (${code}) before it was ready\n${output()}`));
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Polls until something answers HTTP on the port. */
async function waitForHttp(port: number, child: ChildProcess, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode})\n${output()}`);
    try {
      await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${what} did not answer on port ${port}\n${output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

// --- The build ---

if (!existsSync(join(ROOT, 'dist/current/manifest.json'))) {
  console.log('no build output (dist/current): running npm run build');
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build failed (${built.status ?? built.signal})`);
}
tmp = await mkdtemp(join(tmpdir(), 'folio-bench-serve-'));
// nginx serves the live build's static artefact as one folder: its files, wherever a build holds them (src/artefact/client-files.ts), linked into one.
const CLIENT = join(tmp, 'client');
const layout = buildLayout(await realpath(join(ROOT, 'dist/current')));
const manifest = await readManifest(layout);
await mirror(clientFiles(layout, manifest), CLIENT);

// --- Folio ---

/** Folio on a free port; `rateLimit` 0 is off, a huge one is on and never trips (its cost alone). */
async function startFolio(rateLimit: number, redisUrl = ''): Promise<string> {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, ['src/server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT: String(rateLimit), EVENT_SIGNING_SECRET: 'bench', WORKERS: String(WORKERS), REDIS_URL: redisUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  await waitForLine(child, new RegExp(`listening on http://localhost:${port}\\b`), 'Folio', tail(child));
  return `http://127.0.0.1:${port}`;
}
const FOLIO = await startFolio(0);
const FOLIO_LIMITED = await startFolio(1_000_000_000);
// The same on Redis, when this machine has a redis-server (the bench starts its own).
const REDIS = ['redis-server', 'valkey-server'].find((b) => spawnSync(b, ['--version']).status === 0);
let FOLIO_REDIS: string | undefined;
if (REDIS) {
  const redisPort = await freePort();
  const redis = track(spawn(REDIS, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp], { stdio: ['ignore', 'pipe', 'pipe'] }));
  await waitForLine(redis, /Ready to accept connections/, 'redis-server', tail(redis));
  FOLIO_REDIS = await startFolio(1_000_000_000, `redis://127.0.0.1:${redisPort}`);
}

interface Answer {
  status: number;
  body: Buffer;
  headers: Headers;
}
/** Without Accept-Encoding, as wrk asks: the identity bytes. */
async function get(url: string): Promise<Answer> {
  const r = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()), headers: r.headers };
}
async function getJson(url: string): Promise<Record<string, unknown>> {
  const a = await get(url);
  if (a.status !== 200) throw new Error(`GET ${url}: ${a.status} ${a.body.toString().slice(0, 300)}`);
  return JSON.parse(a.body.toString()) as Record<string, unknown>;
}

// Slugs and the list's language from the running server.
const posts = await getJson(`${FOLIO}/api/posts`);
const first = (posts.data as Record<string, unknown>[] | undefined)?.[0];
if (!first || typeof first.slug !== 'string') throw new Error('GET /api/posts has no posts');
const slug = first.slug;
const translation = first.translation as { available_languages?: unknown } | undefined;
const available = (Array.isArray(first.translations_available) ? first.translations_available : Array.isArray(translation?.available_languages) ? translation.available_languages : []).filter(
  (l): l is string => typeof l === 'string' && l !== 'en',
);
const lang = available.includes('fr') ? 'fr' : (available[0] ?? 'en');
const inLang = (await getJson(`${FOLIO}/api/posts?lang=${lang}`)).pagination as { total?: number; per_page?: number } | undefined;
const listPage = (inLang?.total ?? 0) > (inLang?.per_page ?? 10) ? 2 : 1;
// The canonical query names the file (src/core/params.ts: page 1 is the default, left out).
const listQuery = listPage > 1 ? `lang=${lang}&page=${listPage}` : `lang=${lang}`;

interface Target {
  label: string;
  folioPath: string;
  nginxPath: string;
  note?: string;
}
const listFile = `/api/posts/_query/${listQuery}.json`;
const listBuilt = existsSync(join(CLIENT, listFile));
const targets: Target[] = [
  { label: 'detail JSON', folioPath: `/api/posts/${slug}`, nginxPath: `/api/posts/${slug}/index.json` },
  {
    label: 'list',
    folioPath: `/api/posts?${listQuery}`,
    nginxPath: listBuilt ? listFile : '/__list.json',
    note: listBuilt ? undefined : `${listFile} is not in the build yet: nginx serves Folio's answer, copied to <tmp>/list.json`,
  },
  { label: 'HTML page', folioPath: `/${slug}`, nginxPath: `/${slug}.html` },
  { label: '404', folioPath: '/no-such-page-for-bench', nginxPath: '/no-such-page-for-bench', note: "nginx's error_page answers Folio's 404 body, copied to <tmp>/__404.html" },
  // Through the front: what it serves itself, against plain nginx on the same files.
  { label: 'front: page', folioPath: `/${slug}`, nginxPath: `/${slug}.html` },
  { label: 'front: feed', folioPath: '/feed.xml', nginxPath: '/feed.xml' },
];
const FRONTED = (t: Target) => t.label.startsWith('front: ');

const folioAnswers = new Map<string, Answer>();
for (const t of targets) folioAnswers.set(t.label, await get(FOLIO + t.folioPath));
await writeFile(join(tmp, '__404.html'), folioAnswers.get('404')!.body);
if (!listBuilt) await writeFile(join(tmp, 'list.json'), folioAnswers.get('list')!.body);

// --- nginx ---

const nginxPort = await freePort();
for (const d of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(tmp, d));
const q = (s: string) => JSON.stringify(s);
const nginxConf = `# generated by bench/serve.ts
worker_processes ${WORKERS};
${process.getuid?.() === 0 ? `user ${userInfo().username};\n` : ''}pid ${q(join(tmp, 'nginx.pid'))};
error_log ${q(join(tmp, 'error.log'))} warn;
events { worker_connections 1024; }
http {
  types {
    text/html html;
    application/json json;
    text/markdown md;
  }
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/html application/json text/markdown;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  open_file_cache max=10000;
  etag on;
  client_body_temp_path ${q(join(tmp, 'client_body'))};
  proxy_temp_path ${q(join(tmp, 'proxy'))};
  fastcgi_temp_path ${q(join(tmp, 'fastcgi'))};
  uwsgi_temp_path ${q(join(tmp, 'uwsgi'))};
  scgi_temp_path ${q(join(tmp, 'scgi'))};
  server {
    listen 127.0.0.1:${nginxPort};
    root ${q(CLIENT)};
    add_header Access-Control-Allow-Origin * always;
    add_header X-Content-Type-Options nosniff always;
    error_page 404 /__404.html;
    location / { }
    location = /__404.html { internal; root ${q(tmp)}; }
    location = /__list.json { alias ${q(join(tmp, 'list.json'))}; }
  }
}
`;
await writeFile(join(tmp, 'nginx.conf'), nginxConf);
const nginx = track(
  spawn(NGINX, ['-p', `${tmp}/`, '-e', join(tmp, 'error.log'), '-c', join(tmp, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] }),
);
const nginxOutput = tail(nginx);
await waitForHttp(nginxPort, nginx, 'nginx', nginxOutput);
const NGINX_URL = `http://127.0.0.1:${nginxPort}`;
const nginxVersion = spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr.trim().replace(/^nginx version: nginx\//, '');

// --- nginx in front of Folio: the --target nginx configuration and copy, with this run's ports and workers ---

const FRONT_DIR = join(tmp, 'front');
const frontPort = await freePort();
{
  const files = frontFiles(manifest);
  await writeFrontCopy(layout, manifest, files, FRONT_DIR);
  for (const d of ['logs', 'tmp']) await mkdir(join(FRONT_DIR, d));
  const conf = frontConf(frontRules(files), { listen: `127.0.0.1:${frontPort}`, upstream: new URL(FOLIO).host });
  await writeFile(join(FRONT_DIR, 'nginx.conf'), conf.replace('worker_processes auto;', `worker_processes ${WORKERS};${process.getuid?.() === 0 ? `\nuser ${userInfo().username};` : ''}`));
}
const front = track(spawn(NGINX, ['-p', `${FRONT_DIR}/`, '-e', join(FRONT_DIR, 'logs', 'error.log'), '-c', 'nginx.conf', '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] }));
await waitForHttp(frontPort, front, 'nginx in front of Folio', tail(front));
const FRONT_URL = `http://127.0.0.1:${frontPort}`;

// --- The raw node:http ceiling (detail JSON bytes and headers, precomputed) ---

const RAW_SCRIPT = `
const http = require('node:http');
const fs = require('node:fs');
const body = fs.readFileSync(process.env.RAW_BODY);
const headers = JSON.parse(fs.readFileSync(process.env.RAW_HEADERS, 'utf8'));
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('raw listening on ' + process.env.PORT));
process.on('SIGTERM', () => process.exit(0));
`;
let rawUrl: string | undefined;
if (RAW_NODE) {
  const detail = folioAnswers.get('detail JSON')!;
  const headers: Record<string, string> = {};
  const hopByHop = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  detail.headers.forEach((value, key) => {
    if (!hopByHop.has(key)) headers[key] = value;
  });
  await writeFile(join(tmp, 'raw-body.json'), detail.body);
  await writeFile(join(tmp, 'raw-headers.json'), JSON.stringify(headers));
  const rawPort = await freePort();
  const raw = track(
    spawn(process.execPath, ['-e', RAW_SCRIPT], {
      env: { ...process.env, PORT: String(rawPort), RAW_BODY: join(tmp, 'raw-body.json'), RAW_HEADERS: join(tmp, 'raw-headers.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const rawOutput = tail(raw);
  await waitForLine(raw, /raw listening/, 'raw node:http server', rawOutput, 20_000);
  rawUrl = `http://127.0.0.1:${rawPort}`;
}

// --- Same status, same bytes? ---

type Server = 'nginx' | 'folio' | 'folio, rate limit on' | 'folio, rate limit on Redis' | 'raw node' | 'nginx in front';
const BASES: Record<Exclude<Server, 'nginx'>, () => string> = {
  folio: () => FOLIO,
  'nginx in front': () => FRONT_URL,
  'folio, rate limit on': () => FOLIO_LIMITED,
  'folio, rate limit on Redis': () => FOLIO_REDIS!,
  'raw node': () => rawUrl!,
};
const urlOf = (server: Server, t: Target) => (server === 'nginx' ? NGINX_URL + t.nginxPath : BASES[server]() + t.folioPath);
const serversFor = (t: Target): Server[] =>
  t.label === 'detail JSON'
    ? ['nginx', 'folio', 'folio, rate limit on', ...(FOLIO_REDIS ? (['folio, rate limit on Redis'] as const) : []), ...(rawUrl ? (['raw node'] as const) : [])]
    : FRONTED(t)
      ? ['nginx', 'nginx in front']
      : ['nginx', 'folio'];

const warnings: string[] = [];
for (const t of targets) {
  const f = await get(urlOf('folio', t));
  for (const server of serversFor(t).filter((s) => s !== 'folio')) {
    const o = await get(urlOf(server, t));
    if (o.status !== f.status || !o.body.equals(f.body)) {
      warnings.push(`warning: ${t.label}: ${server} answers ${o.status} with ${o.body.length} bytes, folio ${f.status} with ${f.body.length} bytes${o.status === f.status ? ' (bodies differ)' : ''}`);
    }
  }
}

// --- Load ---

interface Sample {
  rps: number;
  p99ms: number;
  socketErrors: number;
}
const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function wrk(url: string, seconds: number): Promise<Sample> {
  return new Promise((done, fail) => {
    const child = track(spawn(WRK!, [`-t${WORKERS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', url], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
      if (code !== 0 || !rps || !p99) return fail(new Error(`wrk ${url} exited with ${code}:\n${out}`));
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
      done({ rps: Number(rps[1]), p99ms: Number(p99[1]) * UNIT_MS[p99[2]!]!, socketErrors });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const cores = availableParallelism();
console.log(`Folio's Node server vs nginx ${nginxVersion}, same bytes, same run (${cores} cores, shared with wrk)`);
console.log(
  `wrk -t${WORKERS} -c${CONNECTIONS} -d${SECONDS}s --latency; ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} per target alternating servers (order swapped on odd rounds), ${WARMUP_SECONDS} s warm-up per server per target; medians over rounds`,
);
console.log(`nginx: worker_processes ${WORKERS}, Folio: WORKERS=${WORKERS} (--workers N sets both); sendfile, open_file_cache, access_log off; root: the live build's static artefact`);
console.log(`nginx in front: the --target nginx configuration (worker_processes ${WORKERS}) before the first Folio, serving its copy of the build`);
console.log('rate limit on: a second Folio with RATE_LIMIT=1000000000 (counted in shared memory, never trips), against the first with RATE_LIMIT=0');
console.log(FOLIO_REDIS ? 'rate limit on Redis: a third with the same limit counted on a local redis-server (REDIS_URL)' : 'no redis-server: the rate limit on Redis is not measured (apt-get install -y redis-server)');
for (const t of targets) {
  console.log(`  ${t.label.padEnd(12)} folio ${t.folioPath} (${folioAnswers.get(t.label)!.status}, ${folioAnswers.get(t.label)!.body.length.toLocaleString('en-US')} B) | nginx ${t.nginxPath}`);
}
for (const t of targets) if (t.note) console.log(`note: ${t.label}: ${t.note}`);
if (listPage === 1) console.log(`note: list: the demo has ${inLang?.total ?? 0} posts in ${lang}, so page 1 (per_page default)`);
if (rawUrl) console.log('raw node: a bare node:http server answering the detail JSON bytes with precomputed headers (the ceiling for a Node fast path)');
for (const w of warnings) console.log(w);

const results = new Map<string, Map<Server, Sample[]>>();
for (const t of targets) {
  const servers = serversFor(t);
  const samples = new Map<Server, Sample[]>(servers.map((s) => [s, []]));
  for (const s of servers) await wrk(urlOf(s, t), WARMUP_SECONDS);
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of r % 2 ? [...servers].reverse() : servers) samples.get(s)!.push(await wrk(urlOf(s, t), SECONDS));
  }
  results.set(t.label, samples);
}

// --- Report ---

const fmtRps = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`;
const fmtMs = (ms: number) => `p99 ${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
interface Summary {
  rps: number;
  p99: number;
}
const summarise = (xs: Sample[]): Summary => ({ rps: median(xs.map((x) => x.rps)), p99: median(xs.map((x) => x.p99ms)) });
const ratios = new Map<string, { rps: number; p99: number }>();

console.log('');
for (const t of targets) {
  const samples = results.get(t.label)!;
  const n = summarise(samples.get('nginx')!);
  for (const server of serversFor(t).filter((s) => s !== 'nginx')) {
    const o = summarise(samples.get(server)!);
    const ratio = { rps: o.rps / n.rps, p99: o.p99 / n.p99 };
    if (server === 'folio') ratios.set(t.label, ratio);
    if (server === 'folio, rate limit on' || server === 'folio, rate limit on Redis') {
      const off = summarise(samples.get('folio')!);
      console.log(`${t.label.padEnd(13)} ${server} ${fmtRps(o.rps)} ${fmtMs(o.p99)} | off ${fmtRps(off.rps)} ${fmtMs(off.p99)} | ${(o.rps / off.rps).toFixed(2)}x req/s (goal: >= 0.85x)`);
      continue;
    }
    const name = server === 'raw node' ? 'raw node:http' : server;
    if (server === 'nginx in front') ratios.set(t.label, ratio);
    console.log(`${t.label.padEnd(13)} ${name} ${fmtRps(o.rps)} ${fmtMs(o.p99)} | nginx ${fmtRps(n.rps)} ${fmtMs(n.p99)} | ${ratio.rps.toFixed(2)}x req/s, p99 ${ratio.p99.toFixed(2)}x`);
  }
  const errors = [...samples].flatMap(([server, xs]) => (xs.some((x) => x.socketErrors) ? [`${server} ${xs.reduce((sum, x) => sum + x.socketErrors, 0)}`] : []));
  if (errors.length) console.log(`warning: ${t.label}: wrk socket errors: ${errors.join(', ')}`);
}

const failing: string[] = [];
for (const label of ['detail JSON', 'HTML page']) {
  const r = ratios.get(label)!;
  if (r.rps < 0.85 || r.p99 > 1.5) failing.push(`${label} ${r.rps.toFixed(2)}x req/s, p99 ${r.p99.toFixed(2)}x`);
}
const list = ratios.get('list')!;
if (list.rps < 0.85) failing.push(`list ${list.rps.toFixed(2)}x req/s`);
console.log(
  `goal (>= 0.85x nginx req/s and p99 <= 1.5x on detail JSON and HTML page; list >= 0.85x req/s): ${failing.length ? `not met (${failing.join('; ')})` : 'met'}`,
);
const fronted = targets.filter(FRONTED).map((t) => [t.label, ratios.get(t.label)!.rps] as const);
const slow = fronted.filter(([, rps]) => rps < 0.9);
console.log(`goal (nginx in front of Folio >= 0.9x plain nginx req/s on a page and a feed): ${slow.length ? `not met (${slow.map(([l, r]) => `${l} ${r.toFixed(2)}x`).join('; ')})` : 'met'}`);

for (const child of [...children]) await stop(child);
await rm(tmp, { recursive: true, force: true });
tmp = undefined;
