/**
 * What JSON.parse lets through and an answer must not have: nesting deeper than any answer of the
 * service (a reader that walks it would overflow its stack), and a key given twice in one object
 * (JSON.parse keeps the last, so `"error":"N"…"error":"S"` would read as whichever came last).
 * An answer with either says nothing sure: the caller treats it as unreadable.
 */

import { type Message, msg } from "../i18n/message.js";

/** The service's deepest answer nests a handful of levels; this leaves ample room. */
const MAX_ANSWER_DEPTH = 64;

/**
 * Why `text` cannot be trusted as an answer, or undefined. Syntax is JSON.parse's to judge: this
 * only scans brackets and the keys of each object, in one pass.
 */
export function answerShapeProblem(text: string, maxDepth = MAX_ANSWER_DEPTH): Message | undefined {
  /** One entry per open bracket: the keys seen so far for an object, null for an array. */
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const keys = open[open.length - 1];
      if (expectKey && keys) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          return undefined; // not JSON at all: JSON.parse says so
        }
        if (keys.has(key))
          return msg("the key {key} is given twice in one object", { key: JSON.stringify(key.slice(0, 40)) });
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (open.length >= maxDepth) return msg("it nests deeper than {levels} levels", { levels: maxDepth });
      open.push(c === 0x7b ? new Set() : null);
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = open[open.length - 1] !== null && open.length > 0;
    }
  }
  return undefined;
}
