// `npm run bench:cold-start [-- --rounds N]`: the Workers project on workerd (the local preview),
// started fresh each round: the first request for a computed list (an isolate's first request
// loads the build: manifest, catalogs, 14 search indexes per root, through the assets binding),
// then the same kind of request warm. Baseline in the same run: `npm start`'s server, the same way.
// Needs `npm run build -- --target cloudflare` first.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

async function started(entry: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [entry], { env: { ...process.env, PORT: '0', WORKERS: '1', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${log}`)), 60_000);
    const seen = (c: Buffer) => {
      log += c.toString();
      const m = /listening on http:\/\/localhost:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(entry: string) {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const s = await started(entry);
    try {
      // A list no build publishes (per_page=7), so it is computed: core and indexes must be loaded.
      cold.push(await timed(`${s.url}/api/posts?per_page=7&lang=fr`));
      warm.push(await timed(`${s.url}/api/posts?per_page=7&lang=de`));
    } finally {
      s.stop();
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { cold: median(cold), warm: median(warm), all: cold };
}

const worker = await measure('scripts/preview-cloudflare.ts');
const node = await measure('src/server/main.ts');
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`cold start, first computed list (median of ${rounds}): workerd ${ms(worker.cold)} (rounds ${worker.all.map((n) => n.toFixed(0)).join(', ')}), Node ${ms(node.cold)}; target <= 100 ms`);
console.log(`warm, same kind of request: workerd ${ms(worker.warm)}, Node ${ms(node.warm)}`);
console.log(`ratio cold workerd / cold Node: ${(worker.cold / node.cold).toFixed(2)}x`);
