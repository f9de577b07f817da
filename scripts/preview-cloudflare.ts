// `npm run preview:cloudflare`: the Workers project of `npm run build -- --target cloudflare`, run
// locally on workerd by wrangler (no network, no account): Durable Objects are emulated, their
// state kept in a fresh temporary folder, where a project past the assets' file limit has its R2
// bucket filled from its r2/ folder first. PORT (default 4321) and HOST as for `npm start`; the
// settings (RATE_LIMIT, BODY_LIMIT, EVENT_SIGNING_SECRET...) are passed to the worker as vars;
// FOLIO_CLOUDFLARE_DIR runs another project than dist/cloudflare; FOLIO_PREVIEW_INVOCATIONS=1
// numbers the worker's invocations in an X-Folio-Invocation header (the tests' proof that the
// assets answered a request alone); FOLIO_PREVIEW_STATE runs with a state folder of its own, kept
// and taken as it is (its R2 bucket as `npm run upload:r2 -- --local --persist-to <it>` filled it).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PUBLISH } from '../src/artefact/roots.ts';
import { fillLocalR2 } from './local-r2.ts';

const project = resolve(process.env.FOLIO_CLOUDFLARE_DIR || join(PUBLISH.out, 'cloudflare'));
const config = join(project, 'wrangler.jsonc');
if (!existsSync(config)) {
  console.error(`${config} is missing: run \`npm run build -- --target cloudflare\` first.`);
  process.exit(1);
}

/** A free loopback port (wrangler's own inspector must not collide with another preview's). */
const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

// A preview is one machine: a key of its own when none is given (a deployed worker must have one).
process.env.EVENT_SIGNING_SECRET ||= randomBytes(32).toString('base64url');
const SETTINGS = ['RATE_LIMIT', 'RATE_LIMIT_WINDOW', 'TRUST_PROXY', 'BODY_LIMIT', 'MCP_ALLOWED_ORIGINS', 'ANSWER_CACHE_MB', 'ARTEFACT_CACHE_MB', 'MCP_SSE_SESSIONS_PER_CLIENT', 'MCP_SSE_IDLE_SECONDS', 'EVENT_SIGNING_SECRET', 'FOLIO_PREVIEW_INVOCATIONS'];
// Paid contact is configured as on Node (CONTACT_*, SANDBOX_CONTACT_*); its inbox is the local D1.
const contact = Object.keys(process.env).filter((name) => /^(SANDBOX_)?CONTACT_/.test(name) && process.env[name] !== '');
const vars = [...SETTINGS, ...contact].filter((name) => process.env[name] !== undefined).flatMap((name) => ['--var', `${name}:${process.env[name]}`]);
const port = Number(process.env.PORT || 4321) || (await freePort());
const host = process.env.HOST || '127.0.0.1';
const given = process.env.FOLIO_PREVIEW_STATE ? resolve(process.env.FOLIO_PREVIEW_STATE) : undefined;
const state = given ?? (await mkdtemp(join(tmpdir(), 'folio-workerd-')));
if (!given && existsSync(join(project, 'r2'))) {
  const t0 = Date.now();
  const objects = await fillLocalR2(join(project, 'r2'), state);
  console.log(`preview: ${objects} objects put in the local R2 bucket in ${Date.now() - t0} ms`);
}
const args = [resolve('node_modules/wrangler/bin/wrangler.js'), 'dev', '-c', config, '--port', String(port), '--ip', host, '--inspector-port', String(await freePort()), '--persist-to', state, '--show-interactive-dev-session=false', ...vars];
const child = spawn(process.execPath, args, {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_LOG_SANITIZE: 'false' },
});

// Said once wrangler has workerd listening: the same line `npm start` prints, so tools wait for either alike.
let said = false;
child.stdout!.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!said && /Ready on http/.test(chunk.toString())) {
    said = true;
    console.log(`folio on workerd: listening on http://localhost:${port}`);
  }
});

const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', async (code) => {
  if (!given) await rm(state, { recursive: true, force: true });
  process.exit(code ?? 0);
});
