import type { Core } from '../core/index.ts';

/** The core the pages of one content root render from. */
export interface SiteRoot {
  name: 'main' | 'sandbox';
  base: string;
  core: Core;
}
