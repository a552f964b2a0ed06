/**
 * The most vouchers `lotes` takes in one call (one type), and `lotes_encola` (reference §11).
 * A module of their own, so that the commands' `--batch-size` reads them without loading the batch.
 */
export const INSTANT_BATCH_MAX = 20;
export const QUEUED_BATCH_MAX = 100;
