/**
 * The service's transport: credentials in the body, JSON both ways, failures typed (the typed
 * protocol in protocol.ts reads and normalises the answers). Calls that change nothing are
 * retried with exponential backoff and jitter; issuing calls never are: their callers reconcile
 * by `external_reference` instead.
 */

import type { Credentials } from "../config/profile.js";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { addressAllowed, documentUrl, MAX_DOCUMENT_BYTES } from "./documents.js";
import { exchange, type HttpOptions, type HttpResponse, TransportError } from "./http.js";
import { answerShapeProblem } from "./json-shape.js";
import { C1_CONTROL, repairMojibake } from "./mojibake.js";

// biome-ignore lint/suspicious/noExplicitAny: the service's answers are untyped JSON, read field by field
export type Answer = Record<string, any>;

export class AccessDeniedError extends FacturarError {
  constructor(message: string) {
    super(
      message,
      "denied",
      "service.denied",
      t("check the profile's usertoken, apikey and apitoken (and its point of sale)"),
    );
  }
}

export class UnavailableError extends FacturarError {
  constructor(message: string, hint?: string, code = "service.unavailable") {
    super(message, "unavailable", code, hint);
  }
}

export interface ClientOptions {
  baseUrl: string;
  credentials: Credentials;
  userAgent: string;
  /** Verbose request log; credentials never reach it. */
  log?: (line: string) => void;
  readTimeoutMs?: number;
  /** Instant issuing may take the service up to about 90 s. */
  issueTimeoutMs?: number;
  retries?: number;
  /** Base of the backoff, in ms (tests shorten it). */
  backoffMs?: number;
  /**
   * Least time between the starts of two API requests (the service asks 100 ms), across every
   * caller of this client. Document downloads are not spaced: the service does not count them.
   */
  minIntervalMs?: number;
  /**
   * Added to a non-zero `minIntervalMs`: two requests that leave 100 ms apart may arrive closer
   * (a busy machine at either end, a connection being opened), and the service times their
   * arrival. Each 429 adds as much again, up to a quarter of the interval.
   */
  spacingMarginMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** How a request travels; HTTP by default (in-process tests hand it to the sandbox directly). */
  transport?: (url: URL, opts: HttpOptions) => Promise<HttpResponse>;
  /**
   * Where the service is now, when nothing listens where it was (connection refused: the request
   * never left). Handed in by whoever made the client (session/connect.ts: the embedded sandbox
   * another CLI hosted has gone, and this process serves it from its folder instead); the client
   * knows nothing of why. Undefined: it cannot move, the failure stands.
   */
  relocate?: () => Promise<string | undefined>;
}

const SECRET_KEYS = new Set(["usertoken", "apikey", "apitoken"]);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A's to Z's lowered, nothing else: the text keeps its length, so places found in it hold. */
const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/**
 * Our own log's text: the answer's redaction, and the apikey wherever it appears (a few digits
 * that some amount may hold by chance, a price the verbose log can pay).
 */
export function redact(text: string, credentials: Credentials): string {
  let out = redactAnswer(text, credentials);
  if (credentials.apikey) out = out.split(credentials.apikey).join("***");
  return out;
}

/**
 * Terminal control sequences and control characters (but line breaks and tabs), and the Unicode
 * bidirectional controls (embeddings, overrides, isolates, marks): a text from the service is
 * printed, and must not retitle, clear or rewrite the user's terminal, nor show its characters
 * in another order than they are ("Trojan Source").
 */
const CONTROL_CHARS = String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]`;
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
export function tokenPieces(credentials: Credentials): Set<string> {
  const pieces = new Set<string>();
  for (const token of [credentials.usertoken, credentials.apitoken]) {
    if (!token || token.length < FRAGMENT) continue;
    const lower = lowerAscii(token);
    for (let i = 0; i + FRAGMENT <= lower.length; i++) pieces.add(lower.slice(i, i + FRAGMENT));
  }
  return pieces;
}

/** The text with every run that a token also holds (see FRAGMENT) replaced by one `***`. */
export function cutTokenPieces(text: string, pieces: Set<string>): string {
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
export class KeyCollision extends Error {
  constructor(readonly key: string) {
    super(t("the key {key} is given twice in one object", { key: JSON.stringify(key.slice(0, 40)) }));
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

/**
 * An answer's error texts: always a list of non-empty, printable texts, whatever a server sends
 * ([""], a string, a number…).
 */
export function errorTexts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  return list.map((e) => printable(typeof e === "string" ? e : JSON.stringify(e)).trim()).filter((e) => e !== "");
}

/** `00003-00000074`, `0002-00000006` or a bare `0000123`. */
export function parseVoucherNumber(text: unknown): { punto_venta?: number; numero: number } | undefined {
  const s = String(text ?? "").trim();
  const full = /^(\d{1,5})-(\d{1,8})$/.exec(s);
  if (full) return { punto_venta: Number(full[1]), numero: Number(full[2]) };
  return /^\d{1,8}$/.test(s) ? { numero: Number(s) } : undefined;
}

function retryAfterMs(response: HttpResponse): number | undefined {
  const header = response.headers["retry-after"];
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(60_000, Math.max(0, seconds * 1000));
  const when = Date.parse(value);
  return Number.isFinite(when) ? Math.min(60_000, Math.max(0, when - Date.now())) : undefined;
}

/**
 * HTTP statuses that say an issuing request was refused as it stood, before any work: a bad or
 * too large request, a wrong address or method. (401/403, 429 and 5xx are told apart before.)
 */
const NOTHING_DONE = new Set([
  "http.400",
  "http.404",
  "http.405",
  "http.411",
  "http.413",
  "http.414",
  "http.415",
  "http.422",
  "http.431",
]);

/** A failure of one attempt that a read may retry. */
class Retryable extends Error {
  constructor(
    override readonly cause: FacturarError | TransportError,
    readonly waitMs?: number,
  ) {
    super(cause.message);
  }
}

/**
 * See ClientOptions.spacingMarginMs. Measured against `facturar sandbox --like-production` on a
 * busy 2-core machine when gaps were counted from a request's turn: 5 ms still met a 429 about
 * once in 100 calls (each costs its Retry-After, 1 s, to every lane), 10 ms none in three runs of
 * 100. Counted from when a request left (see gate), what happened between the turn and the
 * write no longer needs covering: what is left is how the way there and the service's clock vary.
 */
export const SPACING_MARGIN_MS = 5;

/** What each 429 adds to the margin (up to a quarter of the interval): see spacingMarginMs. */
export const MARGIN_STEP_MS = 10;

export class ApiClient {
  private base: URL;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The requests waiting for their turn to start, one after another (see gate). */
  private turns: Promise<void> = Promise.resolve();
  /** When the last request left (performance.now()): see gate. */
  private lastStart = Number.NEGATIVE_INFINITY;
  /** No request starts before this: the service answered 429 with Retry-After. */
  private notBefore = Number.NEGATIVE_INFINITY;
  /** Added to the spacing; grows with each 429 (see spacingMarginMs). */
  private margin: number;
  /** Requests waiting for their turn (see gate), and a promise that settles when the next one leaves. */
  private waiting = 0;
  private departed: { at: Promise<void>; tell: () => void } = ApiClient.departure();

  constructor(readonly options: ClientOptions) {
    this.base = new URL(`${options.baseUrl.replace(/\/+$/, "")}/`);
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.margin = options.spacingMarginMs ?? SPACING_MARGIN_MS;
  }

  get baseUrl(): URL {
    return this.base;
  }

  /** One move at a time: every caller refused at once waits for the same new address. */
  private moving: Promise<void> | undefined;

  /** Whether the service has moved since `from` was tried (moving it if it can). */
  private async moved(from: URL): Promise<boolean> {
    if (from.origin !== this.base.origin) return true;
    if (!this.options.relocate) return false;
    this.moving ??= this.options
      .relocate()
      .then((to) => {
        if (to) this.base = new URL(`${to.replace(/\/+$/, "")}/`);
      })
      .catch(() => {})
      .finally(() => {
        this.moving = undefined;
      });
    await this.moving;
    return from.origin !== this.base.origin;
  }

  /**
   * A call that changes nothing: retried on network failures, 5xx and 429. `list`: an answer that
   * is a JSON array is taken too (returned as it is), for methods whose shape is undocumented.
   */
  async read(method: string, body: Answer = {}, opts: { list?: boolean } = {}): Promise<Answer> {
    const attempts = (this.options.retries ?? 4) + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(method, body, this.options.readTimeoutMs ?? 30_000, opts.list ?? false);
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (attempt >= attempts) throw this.final(error.cause);
        const backoff = (this.options.backoffMs ?? 500) * 2 ** (attempt - 1);
        const wait = error.waitMs ?? backoff / 2 + Math.random() * backoff;
        this.options.log?.(`retrying ${method} in ${Math.round(wait)} ms (${error.message})`);
        // A Retry-After holds every request of this client (see once): the gate waits it out.
        if (error.waitMs === undefined) await this.sleep(wait);
      }
    }
  }

  /**
   * An issuing call: one attempt, except after a 429 (the service refused before doing anything).
   * A TransportError out of here means the outcome is unknown: reconcile before sending again.
   */
  async issue(method: string, body: Answer): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(method, body, this.options.issueTimeoutMs ?? 95_000);
      } catch (error) {
        // A status that does not say the request was refused before any work (a proxy's 408 or
        // 499, a 409): the voucher may be stored, so the answer is lost, not a refusal.
        if (error instanceof FacturarError && /^http\.\d+$/.test(error.code) && !NOTHING_DONE.has(error.code))
          throw new TransportError(error.message, "dropped", true);
        if (!(error instanceof Retryable)) throw error;
        const rateLimited = error.cause instanceof UnavailableError && error.cause.code === "service.rate-limited";
        if (rateLimited && attempt <= (this.options.retries ?? 4)) {
          if (error.waitMs === undefined) await this.sleep((this.options.backoffMs ?? 500) * 2 ** attempt);
          else this.options.log?.(`retrying ${method} in ${Math.round(error.waitMs)} ms (${error.message})`);
          continue;
        }
        // A 5xx may come from a proxy after the service did the work: as unknown as a timeout.
        if (error.cause instanceof UnavailableError && !rateLimited) {
          throw new TransportError(error.cause.message, "dropped", true);
        }
        throw error.cause;
      }
    }
  }

  /** `issue` with one more rule: an answer that cannot be read may still mean the work was done. */
  async issueOrUnknown(method: string, body: Answer): Promise<Answer> {
    try {
      return await this.issue(method, body);
    } catch (error) {
      if (
        error instanceof UnavailableError &&
        (error.code === "service.not-json" || error.code === "service.too-large")
      ) {
        throw new TransportError(error.message, "dropped", true);
      }
      throw error;
    }
  }

  /**
   * Downloads a document link (no credentials are sent), under the policy of ./documents.ts: a
   * link it refuses throws DocumentLinkError before any connection, and a host that resolves only
   * to addresses it refuses fails with TransportError `refused-address`. Whether the body is a
   * PDF is the caller's to check (`isPdf`).
   *
   * Retried as a read is on 429 (after its Retry-After), 5xx and lost connections: lanes fetch
   * documents several at a time, and a busy service's "too many requests" must not cost a PDF.
   * The last answer is returned as it is; redirects, oversized answers and refused addresses are
   * not retried.
   */
  async download(url: URL, maxBytes = MAX_DOCUMENT_BYTES): Promise<HttpResponse> {
    const target = documentUrl(this.base, url.href);
    const allowAddress = (ip: string) => addressAllowed(this.base, target, ip);
    const attempts = (this.options.retries ?? 4) + 1;
    for (let attempt = 1; ; attempt++) {
      await this.quietMoment();
      this.options.log?.(`GET ${target.origin}${target.pathname}`);
      let waitMs: number | undefined;
      try {
        const response = await exchange(target, {
          method: "GET",
          timeoutMs: this.options.readTimeoutMs ?? 30_000,
          maxBytes,
          headers: { "user-agent": this.options.userAgent },
          allowAddress,
        });
        if ((response.status !== 429 && response.status < 500) || attempt >= attempts) return response;
        waitMs = retryAfterMs(response);
      } catch (error) {
        const final =
          !(error instanceof TransportError) ||
          error.kind === "redirect" ||
          error.kind === "too-large" ||
          error.kind === "refused-address";
        if (final || attempt >= attempts) throw error;
      }
      const backoff = (this.options.backoffMs ?? 500) * 2 ** (attempt - 1);
      await this.sleep(waitMs ?? backoff / 2 + Math.random() * backoff);
    }
  }

  private final(cause: FacturarError | TransportError): FacturarError {
    if (cause instanceof FacturarError) return cause;
    return new UnavailableError(
      t("{message} (after retries)", { message: cause.message }),
      t("check the network, or the service status with `facturar status`"),
    );
  }

  /**
   * Spaces requests by `minIntervalMs` (plus the margin), across every caller of this client, one
   * after another in the order they asked, and never before a Retry-After the service gave has
   * passed. Each gap is counted from when the previous request really left (its last byte handed
   * to the connection, after connecting if it had to), not from when its turn came: what happens
   * in between (a late timer, a busy event loop, a new connection's handshake) would otherwise
   * shorten the gap on arrival. Resolves with `left`, to be called when the request has left or
   * failed (once is enough; later calls do nothing): the next turn waits for it.
   */
  private async gate(): Promise<() => void> {
    const interval = this.options.minIntervalMs ?? 0;
    const spacing = interval > 0 ? interval + this.margin : 0;
    if (spacing <= 0 && this.notBefore === Number.NEGATIVE_INFINITY) return () => {};
    let release: () => void = () => {};
    const gone = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.turns;
    this.turns = gone;
    this.waiting++;
    await previous;
    for (;;) {
      const wait = Math.max(this.lastStart + spacing, this.notBefore) - performance.now();
      if (wait <= 0) break;
      await this.sleep(wait);
      // A fake sleep (tests) does not move the clock: one wait is the turn.
      if (this.options.sleep) break;
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.lastStart = performance.now();
      this.waiting--;
      const { tell } = this.departed;
      this.departed = ApiClient.departure();
      tell();
      release();
    };
  }

  private static departure(): { at: Promise<void>; tell: () => void } {
    let tell: () => void = () => {};
    const at = new Promise<void>((resolve) => {
      tell = resolve;
    });
    return { at, tell };
  }

  /**
   * A document download starts in the first half of the interval after an API request left,
   * never in the moments before the next one may leave: a service that serves (or renders) a
   * document in the same process as its API would otherwise be busy when that request arrives,
   * stamp it late, and take the one after, sent on time, for one too soon (429, and a wider
   * margin for the rest of the run). The client's own event loop is then free at each turn too.
   * When no request has left for two intervals and none waits for its turn (the lanes are not
   * sending), a download goes at once: nothing is due that it could delay.
   */
  private async quietMoment(): Promise<void> {
    const interval = this.options.minIntervalMs ?? 0;
    if (interval <= 0) return;
    for (;;) {
      const spacing = interval + this.margin;
      const now = performance.now();
      if (Math.max(this.lastStart + spacing, this.notBefore) - now > spacing / 2) return;
      const idleAt = this.lastStart + 2 * spacing;
      if (this.waiting === 0 && now >= idleAt) return;
      let timer: NodeJS.Timeout | undefined;
      const idle =
        this.waiting === 0
          ? new Promise<void>((r) => (timer = setTimeout(r, idleAt - now)))
          : new Promise<void>(() => {});
      await Promise.race([this.departed.at, idle]);
      clearTimeout(timer);
    }
  }

  private async once(method: string, body: Answer, timeoutMs: number, list = false): Promise<Answer> {
    const url = new URL(method, this.base);
    const payload = JSON.stringify({ ...body, ...this.options.credentials });
    const log = this.options.log;
    // Everything but the send itself is done before the turn: the send follows it at once.
    let line: string | undefined;
    if (log) {
      const shown = Object.fromEntries(
        Object.entries({ ...body, ...this.options.credentials }).map(([k, v]) => [k, SECRET_KEYS.has(k) ? "***" : v]),
      );
      line = `POST ${url.origin}${url.pathname} ${cleanText(JSON.stringify(shown).slice(0, 8000), this.options.credentials).slice(0, 4000)}`;
    }
    const left = await this.gate();
    const started = Date.now();
    if (line !== undefined) log?.(line);
    let response: HttpResponse;
    try {
      response = await (this.options.transport ?? exchange)(url, {
        method: "POST",
        body: payload,
        timeoutMs,
        headers: { "user-agent": this.options.userAgent, accept: "application/json" },
        onSent: left,
      });
    } catch (error) {
      // Never sent, or sent and lost: either way the next request's turn may come.
      left();
      if (error instanceof TransportError) {
        // A redirect's Location, say, is the server's text: it may echo the credentials.
        const cleaned = new TransportError(
          cleanText(error.message, this.options.credentials),
          error.kind,
          error.maybeDelivered,
        );
        log?.(`  ${cleaned.kind}: ${cleaned.message}`);
        // Nothing reached the service: the same request goes where it is now, if it has moved.
        if (error.kind === "refused" && !error.maybeDelivered && (await this.moved(url))) {
          log?.(`  ${t("the service moved to {url}", { url: this.base.origin })}`);
          return this.once(method, body, timeoutMs, list);
        }
        if (cleaned.kind === "redirect" || cleaned.kind === "too-large")
          throw new UnavailableError(cleaned.message, undefined, `service.${cleaned.kind}`);
        throw new Retryable(cleaned);
      }
      throw error;
    }
    // A transport that does not tell when the request left: it has, now that it is answered.
    left();
    // A server that echoes the credentials back (in an error text, say) must not get them printed
    // or journaled: they are cut out of the answer before anything reads it (from the raw text,
    // then from each decoded string: see cleanAnswer).
    const text = redactAnswer(response.body.toString("utf8"), this.options.credentials);
    // The log shows the body as it came (an HTML page may hold raw escapes): printable first, then
    // redacted, so that taking a control sequence out cannot make a credential whole again.
    // Cut to twice what is shown before cleaning (an answer may be megabytes), then to what is shown.
    log?.(
      `  ${response.status} in ${Date.now() - started} ms: ${cleanText(text.slice(0, 8000), this.options.credentials).slice(0, 4000)}`,
    );
    // Nested past any real answer, or a key given twice: nothing in it can be read surely.
    let unreadable = answerShapeProblem(text);
    let parsed: unknown;
    try {
      parsed = unreadable === undefined ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    let answer: Answer | undefined;
    try {
      answer =
        parsed !== null && typeof parsed === "object" && (list || !Array.isArray(parsed))
          ? (cleanAnswer(parsed, this.options.credentials) as Answer)
          : undefined;
    } catch (error) {
      if (!(error instanceof KeyCollision)) throw error;
      unreadable = error.message;
    }
    const message = errorTexts(answer?.errores).join("; ") || undefined;
    if (response.status === 401 || response.status === 403) {
      throw new AccessDeniedError(
        `${t("access denied (HTTP {status})", { status: response.status })}${message ? `: ${message}` : ""}`,
      );
    }
    if (response.status === 429) {
      const waitMs = retryAfterMs(response);
      // Too many requests from this client: none of its requests goes before the service's time.
      if (waitMs !== undefined) this.notBefore = Math.max(this.notBefore, performance.now() + waitMs);
      // Spaced, and still too close on arrival: the way there varies more than the margin allows.
      const interval = this.options.minIntervalMs ?? 0;
      if (interval > 0) this.margin = Math.min(this.margin + MARGIN_STEP_MS, Math.ceil(interval / 4));
      throw new Retryable(
        new UnavailableError(t("too many requests (HTTP 429)"), t("lower the request rate"), "service.rate-limited"),
        waitMs,
      );
    }
    if (response.status >= 500) {
      throw new Retryable(
        new UnavailableError(
          t("the service failed (HTTP {status})", { status: response.status }),
          t("try again later; `facturar status` shows the service's state"),
        ),
      );
    }
    if (response.status !== 200) {
      throw new FacturarError(
        `${t("the service answered HTTP {status} to {method}", { status: response.status, method })}${message ? `: ${message}` : ""}`,
        "rejected",
        `http.${response.status}`,
        response.status === 404 ? t("is base_url the API's /app/api/v2 address?") : undefined,
      );
    }
    if (!answer) {
      throw new UnavailableError(
        unreadable
          ? t("the service's answer to {method} cannot be read: {problem}", { method, problem: unreadable })
          : t("the service answered {method} with something that is not a JSON object", { method }),
        t("the base URL may point at a web page, or a proxy is in the way"),
        "service.not-json",
      );
    }
    if (answer.mantenimiento !== undefined && Number(answer.mantenimiento) !== 0) {
      throw new UnavailableError(
        `${answer.mantenimiento_hasta ? t("the service is under maintenance until {until}", { until: printable(String(answer.mantenimiento_hasta)) }) : t("the service is under maintenance")}${message ? `: ${message}` : ""}`,
        t("try again after that time"),
        "service.maintenance",
      );
    }
    return answer;
  }
}
