// Author command: `npm run translate -- [slug...] [--lang fr,de] [--missing] [--stale] [--provider NAME]
// [--dry-run] [--max-chars N] [--replace] [--retranslate-reviewed] [--root DIR]`: makes the missing and stale translations with the engine
// content/translation.yaml names for each language, sending only what the memory does not hold.
import { parseArgs } from 'node:util';
import { RunError, runTranslation } from '../src/translate/run.ts';

const HELP = `usage: npm run translate -- [slug...] [options]

Makes the missing and stale translations with the engine content/translation.yaml names for each
language, sending only what the translation memory does not hold. A person's text is kept: where its
English changed it stays, flagged needs_review. A slug names a post (content/posts/) or a standalone
page (content/pages/, e.g. about); none: every post and page.

  --lang fr,de             only these languages (repeatable; default: every routed language)
  --missing, --stale       only missing, or only stale translations (default: both)
  --provider NAME          this engine for every language (apertium, deepl, google, libretranslate, openai)
  --dry-run                what would be sent (whole segments, or the edited sentences), the memory's
                           fuzzy matches of it, and its estimated price; nothing is sent or written
  --max-chars N            send at most N characters in this run
  --replace                translate anew a stale translation made outside Folio (its text is replaced)
  --retranslate-reviewed   send the English under a person's text awaiting review; the engine's replaces it
  --root DIR               the content folder (default: content)
  -h, --help               this text`;

function fail(message: string): never {
  console.error(`translate: ${message}`);
  process.exit(2);
}

// Every option is taken as many times as it is given: --lang adds languages each time, and another
// option given twice is refused rather than one of its values kept in silence.
const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        lang: { type: 'string', multiple: true },
        missing: { type: 'boolean', default: false },
        stale: { type: 'boolean', default: false },
        provider: { type: 'string', multiple: true },
        'dry-run': { type: 'boolean', default: false },
        'max-chars': { type: 'string', multiple: true },
        replace: { type: 'boolean', default: false },
        'retranslate-reviewed': { type: 'boolean', default: false },
        root: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    return fail((e as Error).message);
  }
})();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const once = (name: 'provider' | 'max-chars' | 'root'): string | undefined => {
  const given = values[name] ?? [];
  if (given.length > 1) fail(`--${name} is given ${given.length} times (${given.join(', ')}): give it once`);
  return given[0];
};

const maxCharsGiven = once('max-chars');
const maxChars = maxCharsGiven === undefined ? Infinity : Number(maxCharsGiven);
if (!(maxChars >= 0)) fail('--max-chars takes a number of characters');
const summary = await runTranslation({
  root: once('root') ?? 'content',
  slugs: positionals,
  langs: values.lang && [...new Set(values.lang.flatMap((l) => l.split(',')).map((l) => l.trim().toLowerCase()))],
  missing: values.missing!,
  stale: values.stale!,
  provider: once('provider'),
  dryRun: values['dry-run']!,
  maxChars,
  replace: values.replace!,
  retranslateReviewed: values['retranslate-reviewed']!,
  log: (line) => console.log(line),
}).catch((e: Error) => (e instanceof RunError ? fail(e.message) : Promise.reject(e)));
if (summary.stopped) fail(`stopped: ${summary.stopped}; what was done is kept, run again later (when the quota or the engine allows)`);
if (summary.failed) process.exitCode = 1;
