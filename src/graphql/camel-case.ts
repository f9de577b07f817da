/**
 * The one mapping from REST bodies to GraphQL (and any camelCase surface): every object key
 * from snake_case to camelCase, recursively; values are untouched.
 */
export const camelName = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function camelKeys<T = unknown>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => camelKeys(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelName(k), camelKeys(v)])) as T;
  }
  return value as T;
}
