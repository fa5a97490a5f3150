/**
 * Every limit of the product in one place: what a typed value may be (field limits,
 * which the device applies before queueing an edit and the database's CHECK
 * constraints apply again), and how much one request, batch, session or connection may
 * cost the backend (service limits). The device, the embedded backend and the tests that
 * hold the migrations to these numbers all read this module, so a limit changes here
 * and nowhere else.
 */

/** How much the backend gives one client: sizes, counts and times. */
export const serviceLimits = {
  /** Largest request body the backend reads, in bytes. */
  requestBodyBytes: 1024 * 1024,
  /** Rows one push (push_changes) may carry; the device sends batches of at most this. */
  pushBatchRows: 400,
  /** Rows one pull page may carry. */
  pullPageRows: 1000,
} as const;
