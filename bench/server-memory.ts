// `node bench/server-memory.ts OUT ESSAYS [--no-search]`: the Node server (`npm run serve`, one
// worker, default caches) on a generated corpus of ESSAYS essays x 14 languages built into
// FOLIO_OUT=OUT: its resident memory once it answers, then after 1,000 and 2,000 mixed requests over
// the whole corpus (bench/mixed-load.ts); with --no-search, a list stands for each search (the
// search indexes, which a search loads whole per language, are left out of the figure).
import { startServer } from '../tests/helpers/server.ts';
import { residentMb } from './measure.ts';
import { mixedLoad, titleWords } from './mixed-load.ts';

const [out, n] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const search = !process.argv.includes('--no-search');
const essays = Number(n);
if (!out || !Number.isInteger(essays) || essays < 1) throw new Error('usage: node bench/server-memory.ts <FOLIO_OUT> <essays>');
const server = await startServer({ FOLIO_OUT: out, RATE_LIMIT: '0' }, 'node');
try {
  const mb = async () => `${(await residentMb(server.pid)).toFixed(0)} MB`;
  const words = await titleWords(server.url);
  console.log(`${essays} x 14${search ? '' : ' (no searches)'}: server memory once it answers: ${await mb()}`);
  const t = performance.now();
  const first = await mixedLoad(server.url, essays, words, 0, 1000, search);
  console.log(`after 1,000 mixed requests: ${await mb()} (${((performance.now() - t) / 1000).toFixed(1)} s; statuses ${JSON.stringify(first)})`);
  const second = await mixedLoad(server.url, essays, words, 1000, 2000, search);
  console.log(`after 2,000: ${await mb()} (statuses ${JSON.stringify(second)})`);
} finally {
  await server.stop();
}
