import assert from 'node:assert/strict';
import { getNamedType, isObjectType, type GraphQLSchema } from 'graphql';
import { GRAPHQL_CODES } from '../../src/graphql/errors.ts';

/** A GraphQL request over HTTP; every error it returns must carry a documented code. */
export interface GqlAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function gql(
  base: string,
  query: string,
  variables?: Record<string, unknown>,
  { path = '/graphql', accept = 'application/json' }: { path?: string; accept?: string } = {},
): Promise<GqlAnswer> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  for (const e of body.errors ?? []) assert.ok(GRAPHQL_CODES.includes(e.extensions?.code), `documented code on ${JSON.stringify(e)}`);
  return { status: res.status, headers: res.headers, body };
}

/** The error codes of an answer, in order. */
export const codes = (a: GqlAnswer): string[] => (a.body.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code);

/**
 * A selection of every field of a type, nested objects included (fields that take arguments are
 * skipped), read from the served schema: comparing such an answer with REST shows that the
 * GraphQL type covers every REST key.
 */
export function selectAll(schema: GraphQLSchema, typeName: string): string {
  const type = schema.getType(typeName);
  assert.ok(isObjectType(type), typeName);
  const fields = Object.values(type.getFields()).filter((f) => f.args.length === 0);
  return `{ ${fields
    .map((f) => {
      const named = getNamedType(f.type);
      return isObjectType(named) ? `${f.name} ${selectAll(schema, named.name)}` : f.name;
    })
    .join(' ')} }`;
}

/** Null and absent are the same answer (an optional REST field is absent, its GraphQL field null). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}
