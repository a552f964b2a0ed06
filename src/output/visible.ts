/**
 * Text from the user's own files and their names (a reference, a file name, a message quoting
 * them) as a terminal will show it: control characters, escape sequences and Unicode direction
 * controls (the class of src/control-chars.ts) written out as `\x1b`, `\u202e`, so the user sees
 * what the file holds and the terminal obeys none of it. (The service's texts are stripped
 * instead, where they are read: see printable in src/api/redact.ts.) JSON output needs none of
 * this: JSON escapes them itself.
 */
import { CONTROL_CHARS, CONTROL_RANGES } from "../control-chars.js";
import { say } from "../i18n/index.js";
import type { Text } from "../i18n/message.js";

/** The class and line feeds: one line's piece. */
const UNSEEN = new RegExp(`[\\n${CONTROL_RANGES}]`, "g");
const UNSEEN_BUT_LINE_BREAKS = new RegExp(CONTROL_CHARS, "g");

function written(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** One line's piece: line breaks are written out too (a reference must not start a new line). A message is said first. */
export function visible(text: Text): string {
  return say(text).replace(UNSEEN, written);
}

/** A message of one or more lines: its line breaks stay. */
export function visibleLines(text: Text): string {
  return say(text).replace(UNSEEN_BUT_LINE_BREAKS, written);
}
