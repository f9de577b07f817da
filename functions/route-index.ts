/**
 * Route patterns (`/api/posts/:slug`, `/en/*rest`) indexed by first segment and segment count,
 * so a request tries only the few patterns that could match it, in table order.
 */
export interface Matched<R> {
  route: R;
  params: Record<string, string>;
}

interface Compiled<R> {
  route: R;
  order: number;
  segments: string[];
  wildcard: boolean;
}

function matchSegments(want: string[], got: string[], wildcard: boolean): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.startsWith('*')) {
      params[w.slice(1)] = got.slice(i).join('/');
      return params;
    }
    const g = got[i];
    if (g === undefined) return undefined;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      params[w.slice(1)] = g;
    } else if (w !== g) return undefined;
  }
  return wildcard || want.length === got.length ? params : undefined;
}

export function routeIndex<R extends { path: string }>(routes: readonly R[]) {
  const compiled: Compiled<R>[] = routes.map((route, order) => {
    const segments = route.path.split('/').slice(1);
    return { route, order, segments, wildcard: segments.some((s) => s.startsWith('*')) };
  });
  const literalFirst = new Set(compiled.map((c) => c.segments[0]!).filter((s) => !s.startsWith(':') && !s.startsWith('*')));
  const buckets = new Map<string, Compiled<R>[]>();
  // Longer paths than any pattern can only meet wildcards: one bucket for them, so the map stays small.
  const longest = Math.max(...compiled.map((c) => c.segments.length));

  /** Patterns that can match a path with this first segment and this many segments. */
  function bucket(first: string, count: number): Compiled<R>[] {
    const head = literalFirst.has(first) ? first : '';
    count = Math.min(count, longest + 1);
    const key = `${count}/${head}`;
    let list = buckets.get(key);
    if (!list) {
      list = compiled.filter((c) => {
        const f = c.segments[0]!;
        const firstFits = f.startsWith(':') || f.startsWith('*') || f === head;
        const countFits = c.wildcard ? count >= c.segments.length - 1 : count === c.segments.length;
        return firstFits && countFits;
      });
      buckets.set(key, list);
    }
    return list;
  }

  return {
    /** Every route matching `path` (and accepted by `accept`), in table order. */
    match(path: string, accept: (route: R, params: Record<string, string>) => boolean): Matched<R>[] {
      const got = path.split('/').slice(1);
      const out: Matched<R>[] = [];
      for (const c of bucket(got[0]!, got.length)) {
        const params = matchSegments(c.segments, got, c.wildcard);
        if (params && accept(c.route, params)) out.push({ route: c.route, params });
      }
      return out;
    },
  };
}
