/** Wall time per build phase, for `npm run build -- --timings` (Hugo's --templateMetrics, by phase). */
export interface Timings {
  time<T>(phase: string, run: () => Promise<T>): Promise<T>;
  table(): string;
}

export function phaseTimings(): Timings {
  const phases: [string, number][] = [];
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
    table() {
      const total = performance.now() - started;
      const width = Math.max(5, ...phases.map(([p]) => p.length));
      const row = (name: string, ms: number) => `${name.padEnd(width)}  ${(ms / 1000).toFixed(2).padStart(7)} s  ${((ms / total) * 100).toFixed(0).padStart(3)} %`;
      return [`${'phase'.padEnd(width)}  ${'wall'.padStart(9)}  share`, ...phases.map(([p, ms]) => row(p, ms)), row('total', total)].join('\n');
    },
  };
}
