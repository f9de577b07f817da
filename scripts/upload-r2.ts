// `npm run upload:r2`: puts the R2 part of a Workers project past the assets' file limit (the
// `r2/` folder `npm run build -- --target cloudflare` writes past FOLIO_WORKERS_MAX_ASSETS) into its
// bucket with wrangler's bulk put (`wrangler r2 bulk put`: a bounded number of uploads at a time),
// one batch of objects per wrangler process. Resumable: after each batch, a journal records each
// object's key and ETag (R2's ETag of a single put is its bytes' MD5), and a run skips what the
// journal says the bucket holds already, so a run cut short, or one after a rebuild, puts only what
// is missing or changed. Nothing is deleted from the bucket. `--local` fills wrangler's local R2
// (the one `wrangler dev --persist-to` runs) instead of the account's: no network.
//
//   npm run upload:r2 -- [--dir dist/cloudflare/r2] [--bucket folio-artefact] [--concurrency 8]
//     [--batch 1000] [--journal FILE] [--local [--persist-to DIR]]
//
// The journal is `<FOLIO_OUT>/r2-put-<bucket>.jsonl` for the account's bucket (a record of this
// machine's uploads: delete it to put everything again), `<persist-to>/r2-put-<bucket>.jsonl` for a
// local one. A mistake is one line and exit 2; a failed upload, wrangler's output and exit 1.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { filesUnder } from '../src/fs/files-under.ts';
import { PUBLISH } from '../src/artefact/roots.ts';
import { R2_BUCKET } from '../src/pipeline/targets/cloudflare.ts';

/** Cloudflare's API takes 1,200 requests per 5 minutes per user (wrangler paces its own bulk put so, per process). */
const API_WINDOW_MS = 5 * 60_000;
const API_WINDOW_REQUESTS = 1_100;

function fail(message: string): never {
  console.error(`npm run upload:r2: ${message}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      dir: { type: 'string', default: join(process.env.FOLIO_CLOUDFLARE_DIR || join(PUBLISH.out, 'cloudflare'), 'r2') },
      bucket: { type: 'string', default: R2_BUCKET },
      concurrency: { type: 'string', default: '8' },
      batch: { type: 'string', default: '1000' },
      journal: { type: 'string' },
      local: { type: 'boolean', default: false },
      'persist-to': { type: 'string' },
    },
  }));
} catch (e) {
  fail((e as Error).message);
}
const dir = resolve(values.dir);
const count = (name: 'concurrency' | 'batch', max: number) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1 || n > max) fail(`--${name} is a whole number from 1 to ${max}, not ${values[name]}`);
  return n;
};
const concurrency = count('concurrency', 64);
// A remote batch stays within one window of the API's limit, so that pacing batches keeps to it.
const batch = count('batch', values.local ? 100_000 : API_WINDOW_REQUESTS);
if (!existsSync(dir)) fail(`${dir} is missing: the R2 part is written by \`npm run build -- --target cloudflare\` past FOLIO_WORKERS_MAX_ASSETS`);
if (values['persist-to'] && !values.local) fail('--persist-to is for --local');
// wrangler's default for `wrangler dev -c <project>/wrangler.jsonc`: the state beside the project.
const persistTo = values.local ? resolve(values['persist-to'] ?? join(dir, '..', '.wrangler', 'state')) : undefined;
const journal = resolve(values.journal ?? join(persistTo ?? PUBLISH.out, `r2-put-${values.bucket}.jsonl`));
const config = join(dir, '..', 'wrangler.jsonc');

/** What the journal says the bucket holds: each key's ETag (the last line for a key wins; a line cut short is ignored). */
async function journalled(): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  if (!existsSync(journal)) return held;
  for (const line of (await readFile(journal, 'utf8')).split('\n')) {
    try {
      const { key, etag } = JSON.parse(line) as { key: unknown; etag: unknown };
      if (typeof key === 'string' && typeof etag === 'string') held.set(key, etag);
    } catch {
      // The last line of a run that was stopped as it wrote.
    }
  }
  return held;
}

/** Runs wrangler with these arguments; its output, or an error with it. */
function wrangler(args: string[]): Promise<string> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [resolve('node_modules/wrangler/bin/wrangler.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', failed);
    child.once('exit', (code) => (code === 0 ? done(out) : failed(new Error(`wrangler ${args.slice(0, 3).join(' ')} exited ${code}:\n${out.slice(-4000)}`))));
  });
}

const t0 = Date.now();
const held = await journalled();
const keys = filesUnder(dir).map((name) => name.slice(1));
const todo: { key: string; file: string; etag: string }[] = [];
for (const key of keys) {
  const file = join(dir, key);
  const etag = createHash('md5').update(await readFile(file)).digest('hex');
  if (held.get(key) !== etag) todo.push({ key, file, etag });
}
const where = values.local ? `the local bucket ${values.bucket} (${persistTo})` : `the bucket ${values.bucket}`;
console.log(`r2: ${keys.length} objects in ${dir}; ${keys.length - todo.length} already in ${where} by the journal ${journal}; ${todo.length} to put`);
await mkdir(dirname(journal), { recursive: true });
const lists = await mkdtemp(join(tmpdir(), 'folio-r2-put-'));
try {
  let started = 0;
  for (let i = 0; i < todo.length; i += batch) {
    const part = todo.slice(i, i + batch);
    // wrangler paces the requests of one process; consecutive processes are paced here.
    if (!values.local && started) {
      const wait = started + API_WINDOW_MS - Date.now();
      if (wait > 0) {
        console.log(`r2: waiting ${Math.ceil(wait / 1000)} s (Cloudflare's API takes 1,200 requests per 5 minutes)`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
    started = Date.now();
    const list = join(lists, `${i}.json`);
    await writeFile(list, JSON.stringify(part.map(({ key, file }) => ({ key, file }))));
    const target = values.local ? ['--local', '--persist-to', persistTo!] : ['--remote', '--force'];
    await wrangler(['r2', 'bulk', 'put', values.bucket, '--filename', list, '--concurrency', String(concurrency), ...target, ...(existsSync(config) ? ['-c', config] : [])]);
    await appendFile(journal, part.map(({ key, etag }) => `${JSON.stringify({ key, etag })}\n`).join(''));
    console.log(`r2: put ${Math.min(i + batch, todo.length)} of ${todo.length}`);
  }
} catch (e) {
  console.error(`npm run upload:r2: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await rm(lists, { recursive: true, force: true });
}
if (!process.exitCode) console.log(`r2: ${todo.length} objects put in ${where} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
