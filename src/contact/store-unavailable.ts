/** A shared store (the lock store, the inbox database) could not be reached: the work did not start or finish; a retry can. */
export class StoreUnavailable extends Error {}
