/**
 * Redaction: the profile's credentials kept out of everything we print, log or journal of the
 * service's texts (its answers, a transport failure's message, a redirect's Location), and out of
 * our own request log; and those texts made printable (no control sequences), before redaction,
 * so that taking a control sequence out cannot make a credential whole again.
 */

import type { Credentials } from "../config/profile.js";
import { CONTROL_CHARS } from "../control-chars.js";
import { WordedError } from "../errors.js";
import { isMessage, msg, ours, type Param, type Text, verbatim } from "../i18n/message.js";
import { C1_CONTROL, repairMojibake } from "./mojibake.js";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A's to Z's lowered, nothing else: the text keeps its length, so places found in it hold. */
const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/**
 * Our own log's text: the answer's redaction, and the apikey wherever it appears (a few digits
 * that some amount may hold by chance, a price the verbose log can pay).
 */
function redact(text: string, credentials: Credentials): string {
  let out = redactAnswer(text, credentials);
  if (credentials.apikey) out = out.split(credentials.apikey).join("***");
  return out;
}

/**
 * Terminal control sequences (whole, their parameters too) and the characters of
 * src/control-chars.ts: a text from the service is printed, and must not retitle, clear or
 * rewrite the user's terminal, nor show its characters in another order than they are.
 */
const CONTROL = new RegExp(
  String.raw`\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?|${CONTROL_CHARS}`,
  "g",
);
const HAS_CONTROL = new RegExp(CONTROL_CHARS);

export function printable(value: string): string {
  return HAS_CONTROL.test(value) ? value.replace(CONTROL, "") : value;
}

/** The apikey's name as services and people write it: apikey, api_key, api-key, "API KEY", api.key. */
const APIKEY_NAME = String.raw`api[\s_.-]?key`;

/**
 * The tokens wherever they appear in an answer, in any case (a service may echo them upper-cased);
 * the apikey (a few digits, which amounts and numbers may contain by chance) only beside its name.
 */
export function redactAnswer(text: string, credentials: Credentials): string {
  let out = text;
  for (const value of [credentials.usertoken, credentials.apitoken]) {
    if (value && value.length >= 6) out = out.replace(new RegExp(escapeRegExp(value), "gi"), "***");
  }
  const apikey = credentials.apikey;
  if (apikey) {
    // Again until nothing changes (a few passes at most): an apikey echoed twice in a row
    // ("apikey 4242 4242") must not leave its second copy beside the first one's "***".
    const named = new RegExp(`(${APIKEY_NAME}\\W{0,6})${escapeRegExp(apikey)}`, "gi");
    for (let pass = 0; pass < 8; pass++) {
      const next = out.replace(named, "$1***");
      if (next === out) break;
      out = next;
    }
  }
  return out;
}

/**
 * A token's pieces are secret too: a service that cuts an echoed token in two (two `errores`
 * items, a line break in the middle) prints each piece apart, where the whole token is never
 * seen. So every run of FRAGMENT characters that also occurs in a token (in any case) is cut,
 * wherever it stands. Eight, because a shorter piece of a 32-character token tells little, while
 * shorter runs would start to match everyday words and numbers in the service's texts; for a hex
 * token a text matches an 8-character piece by chance about once in 10^8 places. A piece of
 * fewer than 8 characters at an item's edge stays shown: that is the price of not mangling texts.
 */
const FRAGMENT = 8;

/** Every run of FRAGMENT characters of the tokens, lowered (see FRAGMENT). */
function tokenPieces(credentials: Credentials): Set<string> {
  const pieces = new Set<string>();
  for (const token of [credentials.usertoken, credentials.apitoken]) {
    if (!token || token.length < FRAGMENT) continue;
    const lower = lowerAscii(token);
    for (let i = 0; i + FRAGMENT <= lower.length; i++) pieces.add(lower.slice(i, i + FRAGMENT));
  }
  return pieces;
}

/** The text with every run that a token also holds (see FRAGMENT) replaced by one `***`. */
function cutTokenPieces(text: string, pieces: Set<string>): string {
  if (pieces.size === 0 || text.length < FRAGMENT) return text;
  const lower = lowerAscii(text);
  let out = "";
  let shownFrom = 0;
  let coveredTo = -1;
  for (let i = 0; i + FRAGMENT <= lower.length; i++) {
    if (!pieces.has(lower.slice(i, i + FRAGMENT))) continue;
    if (i > coveredTo) {
      out += `${text.slice(shownFrom, i)}***`;
    }
    coveredTo = i + FRAGMENT;
    shownFrom = coveredTo;
  }
  return coveredTo < 0 ? text : out + text.slice(shownFrom);
}

/**
 * Every string of a parsed answer, keys too, made printable and redacted, in place. Redacting the
 * raw text is not enough: a credential the service splits with a control sequence
 * ("abc\u001b[0mdef"), or writes with JSON's \u escapes, is whole again once decoded and made
 * printable.
 */
/** Two keys of one object that are one once their control characters are taken out. */
export class KeyCollision extends WordedError {
  constructor(readonly key: string) {
    super(msg("the key {key} is given twice in one object", { key: JSON.stringify(key.slice(0, 40)) }));
  }
}

export function cleanAnswer(value: unknown, credentials: Credentials): unknown {
  const pieces = tokenPieces(credentials);
  // A token too short to be cut in pieces is looked for whole.
  const shortTokens = [credentials.usertoken, credentials.apitoken]
    .filter((s) => s && s.length < FRAGMENT)
    .map((s) => s.toLowerCase());
  const apikey = credentials.apikey?.toLowerCase() ?? "";
  const clean = (text: string): string => {
    // A control of the C1 block is the trace of UTF-8 read as Latin-1 and encoded again (the
    // registry's official example, reference §6.3): undone where the text decodes cleanly so,
    // before printable() takes those controls out and the letters with them.
    const shown = printable(C1_CONTROL.test(text) ? repairMojibake(text) : text);
    const cut = cutTokenPieces(shown, pieces);
    // Only a string that holds a credential's text is redacted further: a listing has thousands.
    const lower = cut.toLowerCase();
    const holds =
      cut !== shown || shortTokens.some((s) => lower.includes(s)) || (apikey !== "" && lower.includes(apikey));
    return holds ? redactAnswer(cut, credentials) : cut;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return clean(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i]);
    } else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        const shown = clean(key);
        const inner = walk(o[key]);
        if (shown !== key) {
          // `"error\u0007"` cleaned would overwrite `"error"`: one key given twice, read as neither.
          if (Object.hasOwn(o, shown)) throw new KeyCollision(shown);
          delete o[key];
        }
        o[shown] = inner;
      }
    }
    return v;
  };
  return walk(value);
}

/**
 * Any text the service controls that is not an answer's JSON (a redirect's Location, a transport
 * failure's message, a body that is no JSON), as it may be printed: printable first, so that taking
 * a control sequence out cannot make a credential whole again, then redacted, pieces too.
 */
export function cleanText(text: string, credentials: Credentials): string {
  return cutTokenPieces(redact(printable(text), credentials), tokenPieces(credentials));
}

/** cleanText of a message's words that are not ours: its text parameters, nested ones, verbatim text. */
export function cleanMessage(text: Text, credentials: Credentials): Text {
  if (typeof text === "string") return cleanText(text, credentials);
  if (text.verbatim) return verbatim(cleanText(text.template, credentials));
  const params = text.params;
  if (!params) return text;
  const clean = (value: Param): Param =>
    typeof value === "string"
      ? cleanText(value, credentials)
      : isMessage(value)
        ? cleanMessage(value, credentials)
        : value;
  return ours({
    ...text,
    params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, clean(value)])),
  });
}

const SECRET_KEYS = new Set(["usertoken", "apikey", "apitoken"]);

/**
 * A request's line for the verbose log: its method's address and its body, the credentials' fields
 * shown as `***`, and their values cut wherever else the body holds them; at most `max` characters.
 */
export function shownRequest(url: URL, body: Record<string, unknown>, credentials: Credentials, max = 4000): string {
  const shown = Object.fromEntries(
    Object.entries({ ...body, ...credentials }).map(([k, v]) => [k, SECRET_KEYS.has(k) ? "***" : v]),
  );
  return `POST ${url.origin}${url.pathname} ${cleanText(JSON.stringify(shown).slice(0, 2 * max), credentials).slice(0, max)}`;
}
