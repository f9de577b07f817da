import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { buildSchema, getNamedType, GraphQLError, isObjectType, parse, specifiedRules, validate } from 'graphql';
import { camelKeys } from '../../src/graphql/camel-case.ts';
import { encodeCursor, offsetAfter } from '../../src/graphql/cursor.ts';
import { formatError, fromFolioError, UNEXPECTED_MESSAGE } from '../../src/graphql/errors.ts';
import { explainAbortedValidation, limitsRule, MAX_COST, MAX_DEPTH, MAX_TOKENS, parseWithinLimits } from '../../src/graphql/limits.ts';
import { schema } from '../../src/graphql/schema.ts';
import { errors, FolioError } from '../../src/core/errors.ts';
import { SDL } from '../../src/graphql/sdl.ts';

test('camelKeys maps every key recursively and leaves values alone', () => {
  assert.deepEqual(camelKeys({ is_translation: false, translation: { fallback_used: true, source_language: 'en' }, media: [{ post_slug: 'a_b' }], pt_br: null }), {
    isTranslation: false,
    translation: { fallbackUsed: true, sourceLanguage: 'en' },
    media: [{ postSlug: 'a_b' }],
    ptBr: null,
  });
});

test('cursors: opaque base64 of an offset; only what the API hands out is accepted', () => {
  assert.equal(offsetAfter(undefined), 0);
  assert.equal(offsetAfter(null), 0);
  assert.equal(offsetAfter(encodeCursor(0)), 1);
  assert.equal(offsetAfter(encodeCursor(41)), 42);
  for (const bad of ['', 'nope', '%%%', btoa('offset:-1'), btoa('offset:01'), btoa('offset:1.5'), btoa('12'), encodeCursor(3).replace(/=+$/, ''), btoa(`offset:${'9'.repeat(30)}`)]) {
    assert.throws(() => offsetAfter(bad), (e: unknown) => e instanceof FolioError && e.code === 'BAD_PARAMETER' && /"after"/.test(e.message), bad);
  }
});

test('core errors map to documented codes, their details camelCased into extensions', () => {
  const unavailable = fromFolioError(errors.translationUnavailable('s', 'de', 'stale', 'http://x/s', 'http://x/api/posts/s?lang=de&fallback=en'));
  assert.deepEqual(unavailable.extensions, {
    code: 'TRANSLATION_UNAVAILABLE',
    slug: 's',
    language: 'de',
    status: 'stale',
    englishUrl: 'http://x/s',
    fallbackUrl: 'http://x/api/posts/s?lang=de&fallback=en',
  });
  assert.equal(fromFolioError(errors.unsupportedLanguage('xx')).extensions.code, 'BAD_USER_INPUT');
  assert.equal(fromFolioError(errors.badParameter('fallback', 'en')).extensions.code, 'BAD_USER_INPUT');
  assert.equal(fromFolioError(errors.notFound('Post', 'x')).extensions.code, 'NOT_FOUND');
});

test('formatError: an unexpected error becomes INTERNAL_SERVER_ERROR without its message, stack or cause', () => {
  const secret = new Error('ENOENT: /srv/folio/dist/bundle/main/secret.json');
  const located = new GraphQLError(secret.message, { originalError: secret, path: ['post'] });
  for (const error of [secret, located, 'a string', { weird: true }]) {
    const out = formatError(error);
    assert.equal(out.message, UNEXPECTED_MESSAGE);
    assert.equal(out.extensions.code, 'INTERNAL_SERVER_ERROR');
    const sent = JSON.stringify(out.toJSON());
    assert.ok(!sent.includes('secret') && !sent.includes('ENOENT'), sent);
  }
  assert.deepEqual(formatError(located).path, ['post'], 'where it happened is kept');
});

test('formatError keeps GraphQL errors, folding codes outside the documented set', () => {
  const parse = new GraphQLError('Syntax Error', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
  assert.equal(formatError(parse), parse);
  assert.equal(formatError(new GraphQLError('Must provide query string.', { extensions: { code: 'BAD_REQUEST' } })).extensions.code, 'BAD_USER_INPUT');
  const coercion = formatError(new GraphQLError('Variable "$n" got invalid value', { extensions: { http: { status: 400 } } }));
  assert.equal(coercion.extensions.code, 'BAD_USER_INPUT');
  assert.deepEqual(coercion.extensions.http, { status: 400, spec: true }, 'GraphQL over HTTP: 200 for application/json');
  assert.equal(formatError(new GraphQLError('Cannot return null for non-nullable field', { path: ['site', 'name'] })).extensions.code, 'INTERNAL_SERVER_ERROR');
  const mapped = fromFolioError(errors.notFound('Post', 'x'));
  assert.equal(formatError(mapped), mapped);
});

test('limits: depth, cost (first multiplies, a variable counts as 100) and tokens', () => {
  // A recursive type, so depth can be exceeded at all (Folio's own schema is at most five deep).
  const tree = buildSchema('type Query { node: Node } type Node { name: String child: Node list(first: Int = 10): [Node] }');
  const check = (source: string) => validate(tree, parse(source), [...specifiedRules, limitsRule]).map((e) => `${e.extensions.code} ${e.message}`);
  const nested = (depth: number) => `{ node ${'{ child '.repeat(depth - 2)}{ name }${' }'.repeat(depth - 2)} }`;
  assert.deepEqual(check(nested(MAX_DEPTH)), []);
  assert.match(check(nested(MAX_DEPTH + 1)).join(), /^QUERY_TOO_COMPLEX .*11 fields deep/);
  // node 1 + list (1 + 100 x (list 1 + 98 x name 1)) = 9902
  assert.deepEqual(check('{ node { list(first: 100) { list(first: 98) { name } } } }'), []);
  assert.match(check('{ node { list(first: 100) { list(first: 100) { name } } } }').join(), /QUERY_TOO_COMPLEX .*costs 10102/);
  assert.match(check('query($n: Int) { node { list(first: $n) { list(first: $n) { name } } } }').join(), /costs 10102/);
  assert.deepEqual(check('{ node { list { list { name } } } }'), [], 'the default first is 10');
  assert.match(check('fragment F on Node { list(first: 100) { name } } { node { list(first: 100) { ...F } } }').join(), /costs 10102/, 'fragments count where spread');
  assert.match(check('fragment A on Node { child { ...B } } fragment B on Node { child { ...A } } { node { ...A } }').join(), /Cannot spread/, 'a cycle is reported by graphql-js, not looped on');
  assert.ok(MAX_COST < 10102);
  // Introspection is bounded by graphql-js's own rule, not by depth or cost.
  const folio = buildSchema(SDL);
  assert.deepEqual(validate(folio, parse('{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }'), [limitsRule]), []);
  assert.throws(() => parseWithinLimits(`{ ${'a '.repeat(MAX_TOKENS)}}`), (e: unknown) => e instanceof GraphQLError && e.extensions.code === 'QUERY_TOO_COMPLEX');
  assert.equal(parseWithinLimits(`{ ${'a '.repeat(MAX_TOKENS - 2)}}`).kind, 'Document');
});

test("limits: the cost examples of docs/graphql.md are what the rule measures", async () => {
  type Fields = { getFields(): Record<string, { name: string; type: Parameters<typeof getNamedType>[0] }> };
  // Every field, objects expanded to every field of theirs.
  const every = (type: Fields): string =>
    Object.values(type.getFields())
      .map((f) => {
        const named = getNamedType(f.type);
        return isObjectType(named) ? `${f.name} { ${every(named)} }` : f.name;
      })
      .join(' ');
  const lists = (n: number, selection: string) => `{ ${Array.from({ length: n }, (_, i) => `l${i}: posts(first: 100) { ${selection} }`).join(' ')} }`;
  const costOf = (n: number, selection: string) => {
    const errors = validate(schema, parse(lists(n, selection)), [...specifiedRules, limitsRule]);
    return errors.length === 0 ? 'fits' : Number(/costs (\d+)/.exec(errors[0]!.message)![1]);
  };
  const readme = await readFile(new URL('../../docs/graphql.md', import.meta.url), 'utf8');
  const said = /every summary field \(its `translation` too\) costs ([\d,]+), so (\w+) such lists fit in one query and (\w+)\s+do not; one selecting the whole connection[^)]*\) costs ([\d,]+), so (\w+) fit and (\w+) do not/.exec(readme.replace(/\n\s*/g, ' '));
  assert.ok(said, 'docs/graphql.md states the cost examples');
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];
  const num = (s: string) => Number(s.replace(/,/g, ''));
  const cases: [string, number, number, number][] = [
    [`edges { node { ${every(schema.getType('PostSummary') as unknown as Fields)} } }`, num(said[1]!), words.indexOf(said[2]!), words.indexOf(said[3]!)],
    [every(schema.getType('PostConnection') as unknown as Fields), num(said[4]!), words.indexOf(said[5]!), words.indexOf(said[6]!)],
  ];
  for (const [selection, cost, fit, over] of cases) {
    assert.equal(over, fit + 1);
    assert.equal(costOf(fit, selection), 'fits');
    // Each list costs the same, and the whole document is their sum.
    assert.equal(costOf(over, selection), cost * over);
    assert.ok(cost * over > MAX_COST && cost * fit <= MAX_COST);
  }
});

test('limits: a document graphql-js gives up validating is QUERY_TOO_COMPLEX, with the reason', () => {
  const errors = explainAbortedValidation(validate(schema, parse(`{ ${'__typename '.repeat(1000)}}`), [...specifiedRules, limitsRule]));
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.extensions.code, 'QUERY_TOO_COMPLEX');
  assert.match(errors[0]!.message, /too complex to validate/);
  // Errors of a document that merely does not validate are left as they are.
  const plain = explainAbortedValidation(validate(schema, parse('{ nope }')));
  assert.doesNotMatch(plain[0]!.message, /too complex/);
});
