/**
 * Named points between a run's writes where a test kills the process as kill -9 would
 * (`FOLIO_TRANSLATE_KILL_AT=<point>`): after a batch's memory checkpoint (`checkpoint`), after the
 * journal is saved and before the file is written (`journal`), after the file and before the
 * memory records it (`file`), after the memory (`memory`). Unset, nothing happens.
 */
export type KillPoint = 'checkpoint' | 'journal' | 'file' | 'memory';

export function killPoint(point: KillPoint): void {
  if (process.env.FOLIO_TRANSLATE_KILL_AT === point) process.kill(process.pid, 'SIGKILL');
}
