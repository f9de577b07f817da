// Author command: `npm run translate -- [slug...] [--lang fr,de] [--missing] [--stale] [--provider NAME]
// [--dry-run] [--max-chars N] [--replace] [--root DIR]`: makes the missing and stale translations with the engine
// content/translation.yaml names for each language, sending only what the memory does not hold.
import { parseArgs } from 'node:util';
import { RunError, runTranslation } from '../src/translate/run.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    lang: { type: 'string' },
    missing: { type: 'boolean', default: false },
    stale: { type: 'boolean', default: false },
    provider: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'max-chars': { type: 'string' },
    replace: { type: 'boolean', default: false },
    root: { type: 'string', default: 'content' },
  },
});

function fail(message: string): never {
  console.error(`translate: ${message}`);
  process.exit(2);
}

const maxChars = values['max-chars'] === undefined ? Infinity : Number(values['max-chars']);
if (!(maxChars >= 0)) fail('--max-chars takes a number of characters');
const summary = await runTranslation({
  root: values.root!,
  slugs: positionals,
  langs: values.lang?.split(',').map((l) => l.trim().toLowerCase()),
  missing: values.missing!,
  stale: values.stale!,
  provider: values.provider,
  dryRun: values['dry-run']!,
  maxChars,
  replace: values.replace!,
  log: (line) => console.log(line),
}).catch((e: Error) => (e instanceof RunError ? fail(e.message) : Promise.reject(e)));
if (summary.stopped) fail(`stopped: ${summary.stopped}; what was done is kept, run again when the quota allows`);
if (summary.failed) process.exitCode = 1;
