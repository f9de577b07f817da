/**
 * How alike two segments are, for fuzzy matches: the character-level Levenshtein ratio,
 * 1 - distance / length of the longer (1: the same text; an edit of 10 characters in a sentence
 * of 100: 0.9), over the tagged text as it is sent. Only ratios of at least `minimum` are wanted,
 * so the distance is computed in a band of that many edits around the diagonal and given up as
 * soon as it cannot stay within it (0 then): a memory of hundreds of sentences is searched in
 * well under a millisecond per sentence.
 */
export function similarity(a: string, b: string, minimum: number): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  const limit = Math.floor((1 - minimum) * longer);
  if (Math.abs(a.length - b.length) > limit) return 0;
  const n = a.length;
  const m = b.length;
  const far = limit + 1;
  let previous = new Array<number>(m + 1);
  let current = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) previous[j] = j <= limit ? j : far;
  for (let i = 1; i <= n; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(m, i + limit);
    current.fill(far);
    current[0] = i <= limit ? i : far;
    let best = current[0];
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(previous[j - 1]! + cost, previous[j]! + 1, current[j - 1]! + 1, far);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return 0;
    [previous, current] = [current, previous];
  }
  const distance = previous[m]!;
  return distance > limit ? 0 : 1 - distance / longer;
}
