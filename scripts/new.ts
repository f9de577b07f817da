// `npm run new -- "Title" [--slug the-slug] [--lang fr]`: a new post (its English source), or a
// translation of an existing one, with valid front matter. FOLIO_CONTENT moves the content folder.
import { parseArgs } from 'node:util';
import { scaffold, ScaffoldError } from '../src/build/scaffold.ts';

try {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { slug: { type: 'string' }, lang: { type: 'string' } } });
  const file = await scaffold(process.env.FOLIO_CONTENT ?? 'content', { title: positionals.join(' '), slug: values.slug, lang: values.lang });
  console.log(`created ${file}`);
} catch (e) {
  if (!(e instanceof ScaffoldError) && !(e instanceof TypeError)) throw e;
  console.error(`npm run new: ${e.message}`);
  process.exit(1);
}
