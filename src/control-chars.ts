/**
 * The characters a text from elsewhere (the service's answers, the user's files) must not put on
 * a terminal as they are: control characters but line feeds and tabs (escape sequences start with
 * one), the C1 block, and the Unicode bidirectional controls (embeddings, overrides, isolates,
 * marks), which would show characters in another order than they are ("Trojan Source").
 * One class for the two ways of treating them: api/redact.ts takes them out of the service's
 * texts (printable), output/visible.ts writes them out as `\x1b`, `\u202e` in the user's.
 */

/** The class's ranges without its brackets, for a class that adds to them (visible(): line feeds too). */
export const CONTROL_RANGES = String.raw`\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;

/** The class itself, as regular expression source. */
export const CONTROL_CHARS = `[${CONTROL_RANGES}]`;
