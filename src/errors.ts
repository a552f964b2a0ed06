/**
 * Typed errors and the outcomes a command can end in. The core throws these; only src/cli.ts
 * turns an outcome into a process exit code (design.md "Exit codes").
 */
import { english, type Text } from "./i18n/message.js";

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

/**
 * An error whose words the core leaves to the renderers: `text` is what a reader is told (`say()`
 * puts a message in their language), `message` its English, for logs and stacks.
 */
export class WordedError extends Error {
  readonly text: Text;
  constructor(text: Text, options?: ErrorOptions) {
    super(english(text), options);
    this.name = new.target.name;
    this.text = text;
  }
}

export class FacturarError extends WordedError {
  readonly hint?: Text;
  constructor(
    text: Text,
    readonly outcome: Outcome,
    /** Stable machine-readable code, e.g. `input.unreadable`. */
    readonly code: string,
    hint?: Text,
  ) {
    super(text);
    this.hint = hint;
  }
}

/** Bad flags or arguments. */
export class UsageError extends FacturarError {
  constructor(message: Text, hint?: Text) {
    super(message, "usage", "usage", hint);
  }
}

/** A file that cannot be read or parsed at all (missing, bad encoding, broken JSON or CSV). */
export class InputError extends FacturarError {
  constructor(
    message: Text,
    /** Where: `file.csv:row 3` or `file.json:12:5`. */
    readonly place: Text,
    hint?: Text,
  ) {
    super(message, "usage", "input.unreadable", hint);
  }
}

/** What an error says for the reader: our errors' message (to be said in their language), else its own words. */
export function textOf(error: unknown): Text {
  if (error instanceof WordedError) return error.text;
  return error instanceof Error ? error.message : String(error);
}
