import { setFlagsFromString } from "node:v8";

/**
 * Between full collections V8 lets the heap grow to as much as four times what is alive. A big
 * batch makes garbage fast (a voucher read, checked, sent and journaled), so a run that keeps
 * 100 MB alive peaked over 500 MB. Growing by a fifth keeps the peak near the live set, at no
 * cost in speed that bench/issue-memory.mjs could measure. Set by src/cli.ts as it loads, and by
 * src/launch.ts before it compiles the bundle (V8 accepts a code cache only under the flags it
 * was made with); setting it twice changes nothing.
 */
export function tuneHeap(): void {
  setFlagsFromString("--heap-growing-percent=20");
}
