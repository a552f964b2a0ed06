/**
 * JSON for scripts: the core's messages (src/i18n/message.ts) in it are said, in the reader's
 * language; objects of other data that merely look like messages (a service's answer) are kept.
 */
import { say } from "../i18n/index.js";
import { isOurs } from "../i18n/message.js";

export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isOurs(v) ? say(v) : v));
}
