import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, PUBLISH, ROOTS } from '../../src/artefact/roots.ts';
import { writeCloudflare } from '../../src/pipeline/targets/cloudflare.ts';
import { after, before } from 'node:test';
import { passOn } from './child-output.ts';
import { checkContract } from './contract.ts';
import { behindFront, FRONT, startFront } from './front.ts';
import { signalGroup, spawnGroup, startupDeadline, stopGroup } from './process-group.ts';

/** The built site served by the real server, on a random loopback port. */
export interface RunningServer {
  url: string;
  /** The server's process (its memory is read by bench/scale.ts). */
  pid: number;
  stop(): Promise<void>;
  output(): string;
  /** Resolves with the exit code when the process ends on its own or is stopped. */
  exited: Promise<number | null>;
  /** Ends the process at once with a signal (SIGKILL: no clean-up runs, as in a crash). */
  kill(signal: NodeJS.Signals): void;
}

/**
 * Which host the e2e suites run against: `node` (`npm start`'s server) or `cloudflare` (the Workers
 * project on workerd, `npm run preview:cloudflare`), from FOLIO_TEST_TARGET.
 */
export const TARGET = process.env.FOLIO_TEST_TARGET === 'cloudflare' ? 'cloudflare' : 'node';

/**
 * Why a check of disconnects cannot run on the local Workers preview: wrangler's dev proxy does not
 * pass a client's disconnect on to the worker, so a stream is seen gone only at its next write
 * (a ping, within 15 s). Cloudflare itself aborts `request.signal` (the enable_request_signal flag).
 */
export const DISCONNECT_UNSEEN = "wrangler's local proxy does not forward a client's disconnect to the worker (seen at the next ping instead)";

/**
 * For tests that count requests against RATE_LIMIT: windows are fixed and aligned to the clock,
 * so a test's requests must not straddle a boundary (with 60 s windows a slow CI machine did).
 */
export const ONE_WINDOW = { RATE_LIMIT_WINDOW: '86400' };

/**
 * The server a test talks to: Node (or the Workers preview), and with FOLIO_TEST_FRONT=nginx|caddy
 * (`npm run test:nginx`, `test:caddy`) that front before Node, its URL the server's.
 */
export async function startServer(env: Record<string, string> = {}, target: 'node' | 'cloudflare' = TARGET): Promise<RunningServer> {
  if (!FRONT || target !== 'node') return startProcess(env, target);
  const node = await startProcess({ ...env, TRUST_PROXY: behindFront(env.TRUST_PROXY) }, target);
  const front = await startFront(FRONT, node.url).catch(async (e: unknown) => {
    await node.stop();
    throw e;
  });
  return {
    ...node,
    url: front.url,
    async stop() {
      await front.stop();
      await node.stop();
    },
  };
}

/**
 * The e2e suites check the contract, which negotiates page URLs by Accept: on Workers that is the
 * project built with FOLIO_WORKERS_NEGOTIATE=1 (by default the assets serve pages without the worker).
 */
function negotiatingWorkers(): void {
  const config = join(PUBLISH.out, 'cloudflare', 'wrangler.jsonc');
  if (existsSync(config) && !readFileSync(config, 'utf8').includes('"run_worker_first": [\n      "/*"')) {
    throw new Error(`${config} serves pages from the assets without the worker: the e2e suites need page negotiation, \`FOLIO_WORKERS_NEGOTIATE=1 npm run build -- --target cloudflare\` (npm test builds so)`);
  }
}

/**
 * FOLIO_TEST_CLOUDFLARE_R2=N (`npm run test:cloudflare-r2`): the suites run on a Workers project past
 * an asset limit of N files, its build in R2 (negotiating, written once per test process from the
 * live build into a temporary folder, removed at exit).
 */
let r2Project: Promise<string> | undefined;
function cloudflareR2Project(limit: number): Promise<string> {
  r2Project ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-cf-r2-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const report = await writeCloudflare(DIST, ROOTS.map((r) => r.name), dir, { negotiate: true, maxAssets: limit });
    if (!report.r2) throw new Error(`FOLIO_TEST_CLOUDFLARE_R2=${limit}: the project fits the assets (${report.assets} files); give fewer`);
    return dir;
  })();
  return r2Project;
}

async function startProcess(env: Record<string, string>, target: 'node' | 'cloudflare'): Promise<RunningServer> {
  const r2 = Number(process.env.FOLIO_TEST_CLOUDFLARE_R2);
  if (target === 'cloudflare' && !env.FOLIO_CLOUDFLARE_DIR && r2 > 0) env = { ...env, FOLIO_CLOUDFLARE_DIR: await cloudflareR2Project(r2) };
  if (target === 'cloudflare' && !env.FOLIO_CLOUDFLARE_DIR) negotiatingWorkers();
  const entry = target === 'cloudflare' ? 'scripts/preview-cloudflare.ts' : 'src/server/main.ts';
  const child: ChildProcess = spawnGroup(process.execPath, [entry], {
    // One worker unless a test asks for more (tests/e2e/workers.test.ts) or FOLIO_TEST_WORKERS says so for all.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WORKERS: process.env.FOLIO_TEST_WORKERS ?? '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  passOn(child.stdout!, `${entry} ${child.pid}`);
  passOn(child.stderr!, `${entry} ${child.pid}`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Node answers in about a second, a Workers preview in 5 to 30 s (wrangler bundles the worker first).
  // A project with its build in R2 fills the local bucket first (some 20 s for the demo's 900 objects here).
  const withR2 = env.FOLIO_CLOUDFLARE_DIR !== undefined && existsSync(join(env.FOLIO_CLOUDFLARE_DIR, 'r2'));
  const deadline = startupDeadline(target === 'cloudflare' ? (withR2 ? 180_000 : 90_000) : 45_000);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${deadline / 1000} s:\n${log}`)), deadline);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on http:\/\/localhost:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  }).catch(async (e: unknown) => {
    // A server that did not start is stopped with everything it started (a preview's wrangler and workerd;
    // SIGTERM first, so that the preview removes its state folder).
    await stopGroup(child);
    throw e;
  });
  return {
    url,
    pid: child.pid!,
    output: () => log,
    exited,
    // The whole group: a crash of the preview takes its wrangler and workerd down too.
    kill: (signal) => signalGroup(child, signal),
    stop: () => stopGroup(child),
  };
}

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function get(base: string, path: string, init: RequestInit = {}): Promise<Got> {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  await checkContract(base, path, init.method ?? 'GET', res.status, res.headers.get('content-type') ?? '', json);
  return { status: res.status, headers: res.headers, text, json };
}

/** Starts one server for the enclosing test file (or suite) and stops it afterwards. */
export function useServer(env: Record<string, string> = {}) {
  let running: RunningServer | undefined;
  before(async () => {
    running = await startServer(env);
  });
  after(() => running?.stop());
  return {
    get url() {
      return running!.url;
    },
    output: () => running!.output(),
  };
}
