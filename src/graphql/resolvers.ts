import { FolioError } from '../core/errors.ts';
import type { Core } from '../core/index.ts';
import type { Summary } from '../core/shape.ts';
import { argumentsAsParams } from '../core/params.ts';
import { windowAfter, type Window } from '../core/window.ts';
import { camelKeys } from './camel-case.ts';
import { encodeCursor, offsetAfter } from './cursor.ts';
import { fromFolioError } from './errors.ts';

/**
 * Root resolvers: each turns its arguments into the query the REST surface would send, asks the
 * core (which validates lang, fallback, q and the bounds of `first`) and maps the answer's keys
 * to camelCase. Nested fields use the default resolver over those objects.
 */
export interface GraphQLContext {
  core: Core;
}

type Maybe<T> = T | null | undefined;
interface LangArgs {
  lang?: Maybe<string>;
}
interface ContentArgs extends LangArgs {
  fallback?: Maybe<string>;
}
interface WindowArgs {
  first?: Maybe<number>;
  after?: Maybe<string>;
}

const LANG = { lang: 'lang' };
const CONTENT = { lang: 'lang', fallback: 'fallback' };

const windowOf = (args: WindowArgs): Window => windowAfter(offsetAfter(args.after), args.first);

/** A core list answer (`data` and `total`, plus envelope fields) as a Relay connection. */
function connection({ data, total, ...envelope }: { data: Summary[]; total: number }, window: Window) {
  const edges = data.map((item, i) => ({ cursor: encodeCursor(window.offset + i), node: camelKeys(item) }));
  return {
    ...camelKeys<object>(envelope),
    totalCount: total,
    edges,
    pageInfo: {
      hasNextPage: window.offset + data.length < total,
      hasPreviousPage: window.offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** Core errors leave as GraphQL errors with their mapped code; anything else is left to the mask. */
function rootField<A>(resolve: (args: A, core: Core) => unknown) {
  return async (_root: unknown, args: A, context: GraphQLContext) => {
    try {
      return await resolve(args, context.core);
    } catch (e) {
      throw e instanceof FolioError ? fromFolioError(e) : e;
    }
  };
}

export const resolvers = {
  Query: {
    site: rootField<LangArgs>((args, core) => camelKeys(core.site(argumentsAsParams(args, LANG)))),
    languages: rootField((_args, core) => camelKeys(core.languages())),
    posts: rootField<ContentArgs & WindowArgs & { category?: Maybe<string>; tag?: Maybe<string> }>((args, core) => {
      const window = windowOf(args);
      const filter = { categories: args.category ?? undefined, tags: args.tag ?? undefined };
      return connection(core.posts.window(argumentsAsParams(args, CONTENT), window, filter), window);
    }),
    post: rootField<ContentArgs & { slug: string }>(async (args, core) => camelKeys((await core.posts.get(args.slug, argumentsAsParams(args, CONTENT))).data)),
    citation: rootField<ContentArgs & { slug: string }>((args, core) => {
      const { csl, ...forms } = core.posts.cite(args.slug, argumentsAsParams(args, CONTENT)).data;
      // CSL's keys (container-title, URL) are no GraphQL names: the item travels as its JSON text.
      return { csl: JSON.stringify(csl), ...forms };
    }),
    search: rootField<ContentArgs & WindowArgs & { query: string }>(async (args, core) => {
      const window = windowOf(args);
      return connection((await core.search(argumentsAsParams(args, { query: 'q', ...CONTENT }), window)).body, window);
    }),
    categories: rootField<LangArgs>((args, core) => camelKeys(core.terms.list('categories', argumentsAsParams(args, LANG)).data)),
    tags: rootField<LangArgs>((args, core) => camelKeys(core.terms.list('tags', argumentsAsParams(args, LANG)).data)),
  },
};
