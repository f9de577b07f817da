/** Wall time per build phase, for `npm run build -- --timings` (Hugo's --templateMetrics, by phase). */
export interface Timings {
  time<T>(phase: string, run: () => Promise<T>): Promise<T>;
  /** Phases another process timed, as they were, marked as run beside `alongside`. */
  add(phases: readonly Phase[], alongside: string): void;
  /** The phases timed here, in the order they ended. */
  phases(): Phase[];
  table(): string;
}

export type Phase = [name: string, ms: number];

export function phaseTimings(): Timings {
  const phases: Phase[] = [];
  const beside = new Map<string, string>();
  const started = performance.now();
  return {
    async time(phase, run) {
      const t = performance.now();
      try {
        return await run();
      } finally {
        phases.push([phase, performance.now() - t]);
      }
    },
    add(more, alongside) {
      for (const [name, ms] of more) {
        phases.push([name, ms]);
        beside.set(name, alongside);
      }
    },
    phases: () => [...phases],
    table() {
      const total = performance.now() - started;
      const width = Math.max(5, ...phases.map(([p]) => p.length));
      const row = (name: string, ms: number) => `${name.padEnd(width)}  ${(ms / 1000).toFixed(2).padStart(7)} s  ${((ms / total) * 100).toFixed(0).padStart(3)} %${beside.has(name) ? `  (beside ${beside.get(name)})` : ''}`;
      const lines = [`${'phase'.padEnd(width)}  ${'wall'.padStart(9)}  share`, ...phases.map(([p, ms]) => row(p, ms)), row('total', total)];
      // Phases run side by side in two processes: their shares add up to more than the total.
      return lines.join('\n');
    },
  };
}
