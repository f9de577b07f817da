// `npm run new -- "Title" [--slug the-slug] [--lang fr]`: a new post (its English source), or a
// translation of an existing one, with valid front matter. FOLIO_CONTENT moves the content folder.
import { parseArgs } from 'node:util';
import { scaffold, ScaffoldError } from '../src/authoring/scaffold.ts';

try {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { slug: { type: 'string', multiple: true }, lang: { type: 'string', multiple: true } } });
  // A repeated option is refused rather than one of its values kept in silence.
  const once = (name: 'slug' | 'lang') => {
    const given = values[name] ?? [];
    if (given.length > 1) throw new ScaffoldError(`--${name} is given ${given.length} times (${given.join(', ')}): give it once`);
    return given[0];
  };
  const file = await scaffold(process.env.FOLIO_CONTENT ?? 'content', { title: positionals.join(' '), slug: once('slug'), lang: once('lang') });
  console.log(`created ${file}`);
} catch (e) {
  if (!(e instanceof ScaffoldError) && !(e instanceof TypeError)) throw e;
  console.error(`npm run new: ${e.message}`);
  process.exit(1);
}
