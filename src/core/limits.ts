/**
 * The service's fixed protocol limits: the functions enforce them and the documents (OpenAPI,
 * /agents.md) print them, so both read them from here rather than from each other.
 */

/** POST /api/batch: the most GETs one batch may hold. */
export const BATCH_MAX = 20;

/** The most messages one JSON-RPC batch may hold (the MCP SDK's own cap, refused here before anything is charged). */
export const MCP_BATCH_MAX = 100;

/** How long an EventSource waits before reconnecting after a dropped connection (`retry:`). */
export const RETRY_MS = 5_000;

export interface FlowLimits {
  /** Bytes queued for a client before a write waits for it to read. */
  queuedBytes: number;
  /** How long a write waits for a client that is not reading before the stream is dropped. */
  stalledMs: number;
}

export const FLOW_LIMITS: FlowLimits = { queuedBytes: 64 * 1024, stalledMs: 30_000 };

/**
 * The deepest nesting of arrays and objects a JSON request body may have. Parsing is iterative,
 * but code after it recurses (structured clone, JSON.stringify, schema checks): 20,000 levels
 * overflowed the stack in a 500. Real requests nest a few levels; 64 leaves ample room.
 */
export const JSON_DEPTH_MAX = 64;

/**
 * The floor rate at which a client must take an answer once FLOW_LIMITS.stalledMs have passed
 * (MIN_SEND_RATE on Node, bytes a second): slower readers are let go (src/server/send-rate.ts).
 */
export const MIN_SEND_RATE_DEFAULT = 1024;

/**
 * URLs in one sitemap file at most, by default (src/pipeline/publish/sitemap.ts). The protocol allows
 * 50,000 URLs and 50 MB uncompressed a file, and Cloudflare Workers 25 MiB an asset; a URL with its 14
 * hreflang alternates is about 1.4 KB, so 5,000 URLs keep a file near 7 MB, well within every bound
 * (Hugo's and WordPress's sitemap indexes split at a few thousand too).
 */
export const SITEMAP_MAX_URLS_DEFAULT = 5_000;
/** Bytes in one sitemap file at most, whatever its URL count (long slugs): 10 MB, a fifth of the protocol's 50 MB. */
export const SITEMAP_MAX_BYTES = 10_000_000;

/**
 * Bytes in /llms-full.txt (and in each of its parts) at most, by default (src/discovery/llms-full.ts):
 * about a million tokens of English prose, the largest context windows of 2026, and far within
 * Cloudflare Workers' 25 MiB an asset. A site whose posts fit keeps them all in the one file
 * (llmstxt.org); past it, the file holds the newest and names parts holding the older ones.
 */
export const LLMS_FULL_MAX_BYTES_DEFAULT = 4_000_000;

/**
 * Posts one /llms.txt (or /{lang}/llms.txt) lists at most, the newest: a post's line is about 100
 * bytes in English and 210 in Hindi, so about 200 KB at most; past it, a last line names the API's
 * list of every post (src/discovery/llms.ts). Every post listed was 21 MB a file at 100,000 essays.
 */
export const LLMS_POSTS_MAX = 1_000;
