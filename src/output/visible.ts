/**
 * Text from the user's own files and their names (a reference, a file name, a message quoting
 * them) as a terminal will show it: control characters, escape sequences and Unicode direction
 * controls written out as `\x1b`, `\u202e`, so the user sees what the file holds and the terminal
 * obeys none of it. (The service's texts are stripped instead, where they are read: see
 * printable in src/api/client.ts.) JSON output needs none of this: JSON escapes them itself.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSEEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSEEN_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function written(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** One line's piece: line breaks are written out too (a reference must not start a new line). */
export function visible(text: string): string {
  return text.replace(UNSEEN, written);
}

/** A message of one or more lines: its line breaks stay. */
export function visibleLines(text: string): string {
  return text.replace(UNSEEN_BUT_LINE_BREAKS, written);
}
