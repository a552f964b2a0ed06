/** JSON for scripts: the core's messages (src/i18n/message.ts) in it are said, in the reader's language. */
import { say } from "../i18n/index.js";
import { isMessage } from "../i18n/message.js";

export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isMessage(v) ? say(v) : v));
}
