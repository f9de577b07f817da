/**
 * The line the bundle step (scripts/bundle.ts) prints once what the pages need is written, its search
 * indexes still to come: the build starts its pages and answers on it. A module of its own, so that the
 * build's process does not load the bundling code to read one line.
 */
export const BUNDLE_READY = 'bundle ready for the pages';
