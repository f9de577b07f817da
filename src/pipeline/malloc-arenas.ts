/**
 * The environment of the processes a build starts (its bundle and answers steps, the local runner's
 * shards and merge): glibc's MALLOC_ARENA_MAX at 2 unless set. glibc gives each thread that allocates
 * (libuv's pool, the coding and render workers, Astro's bundler) an arena of its own and hands little
 * of it back: V8's heap is less than half of a build process's peak. A sharded build's merge at
 * 300 x 14 peaked at 873-918 MB in its pages process and 524-552 MB in its bundle step, 761-812 MB
 * and 483-486 MB with two arenas, for the same CPU time (docs/performance.md, "Sharded builds").
 * glibc reads it when a process starts: `npm run build` itself takes it from its own environment.
 */
export const stepEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({ ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' });
