// `npm run publish -- <slug> [lang...]`: a draft goes out. Without a language, the post (its English
// source's `draft: true` is cleared); with languages, those translations only. The next build
// publishes it (at its date, if that is still ahead). FOLIO_CONTENT moves the content folder.
// A mistake is one line and exit 2 (`--verbose` adds the stack).
import { parseArgs } from 'node:util';
import { publishDraft, PublishError } from '../src/authoring/publish-draft.ts';

const verbose = process.argv.includes('--verbose');
try {
  const { positionals } = parseArgs({ allowPositionals: true, options: { verbose: { type: 'boolean', default: false } } });
  const [slug, ...langs] = positionals;
  const { files, date } = await publishDraft(process.env.FOLIO_CONTENT ?? 'content', slug, langs);
  for (const file of files) console.log(`published ${file}`);
  if (Date.parse(date) > Date.now()) console.log(`dated ${date}: the first build after that time publishes it (npm start builds then by itself)`);
  else console.log('the next build publishes it: npm run build');
} catch (e) {
  if (verbose) console.error(e);
  else console.error(`npm run publish: ${(e as Error).message.split('\n')[0]}`);
  process.exit(e instanceof PublishError || e instanceof TypeError ? 2 : 1);
}
