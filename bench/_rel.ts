import { relevanceBench } from './relevance.ts';
await relevanceBench('/work/wt-search/dist/current');
