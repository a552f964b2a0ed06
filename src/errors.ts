/**
 * Typed errors and the outcomes a command can end in. The core throws these; only src/cli.ts
 * turns an outcome into a process exit code (design.md "Exit codes").
 */

export const EXIT_CODES = {
  done: 0,
  internal: 1,
  usage: 2,
  invalid: 3,
  rejected: 4,
  denied: 5,
  unavailable: 6,
  partial: 7,
  unknown: 8,
  /** A query that matched nothing. */
  notFound: 9,
  interrupted: 130,
} as const;

export type Outcome = keyof typeof EXIT_CODES;

export class FacturarError extends Error {
  constructor(
    message: string,
    readonly outcome: Outcome,
    /** Stable machine-readable code, e.g. `input.unreadable`. */
    readonly code: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flags or arguments. */
export class UsageError extends FacturarError {
  constructor(message: string, hint?: string) {
    super(message, "usage", "usage", hint);
  }
}

/** A file that cannot be read or parsed at all (missing, bad encoding, broken JSON or CSV). */
export class InputError extends FacturarError {
  constructor(
    message: string,
    /** Where: `file.csv:row 3` or `file.json:12:5`. */
    readonly place: string,
    hint?: string,
  ) {
    super(message, "usage", "input.unreadable", hint);
  }
}
