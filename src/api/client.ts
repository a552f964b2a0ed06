/**
 * The service's transport: credentials in the body, JSON both ways, failures typed (the typed
 * protocol in protocol.ts reads and normalises the answers). Every request takes one path
 * (ApiClient.request, and download for document links) under one retry policy (`retryable`): a
 * read retries what a later attempt may mend, with exponential backoff and jitter; a write retries
 * only a 429, and a failure after which its work may have been done is a lost answer
 * (`lostAnswer`), which its caller settles by asking the service by `external_reference`.
 */

import type { Credentials } from "../config/profile.js";
import { FacturarError, textOf } from "../errors.js";
import { concat, msg, type Text } from "../i18n/message.js";
import { addressAllowed, documentUrl, MAX_DOCUMENT_BYTES } from "./documents.js";
import { exchange, type HttpOptions, type HttpResponse, TransportError } from "./http.js";
import { answerShapeProblem } from "./json-shape.js";
import { cleanAnswer, cleanMessage, cleanText, KeyCollision, printable, redactAnswer, shownRequest } from "./redact.js";

// biome-ignore lint/suspicious/noExplicitAny: the service's answers are untyped JSON, read field by field
export type Answer = Record<string, any>;

export class AccessDeniedError extends FacturarError {
  constructor(message: Text) {
    super(
      message,
      "denied",
      "service.denied",
      msg("check the profile's usertoken, apikey and apitoken (and its point of sale)"),
    );
  }
}

export class UnavailableError extends FacturarError {
  constructor(message: Text, hint?: Text, code = "service.unavailable") {
    super(message, "unavailable", code, hint);
  }
}

export interface ClientOptions {
  baseUrl: string;
  credentials: Credentials;
  userAgent: string;
  /** Verbose request log; credentials never reach it. */
  log?: (line: Text) => void;
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
 * A read changes nothing (a lookup, a listing, the status); a write may (an issuing call, a
 * payment, an e-mail, a queue action); a download fetches a document link, without credentials.
 */
export type RequestKind = "read" | "write" | "download";

/**
 * How one attempt failed: the HTTP status it was answered (anything but 200), how the exchange
 * broke when no answer came (TransportError's kinds), a 200 whose answer cannot be read
 * (`unreadable`: not JSON, nested past reason, a key given twice), or the service's word that it
 * is under maintenance.
 */
export type Failure = number | TransportError["kind"] | "unreadable" | "maintenance";

/** Transport failures that no second attempt mends: the same server answers the same way. */
const FINAL_TRANSPORT: ReadonlySet<Failure> = new Set(["redirect", "too-large", "refused-address"]);

/**
 * The one retry policy, for every request. A 429 is the service refusing before doing anything:
 * any kind retries it (after its Retry-After). A read or a download changes nothing, so it also
 * retries what a later attempt may mend: a 5xx, a connection refused, lost or timed out. A write
 * retries nothing else: a 5xx or a lost connection may come after its work was done, and sending
 * it again could do it twice (see lostAnswer). Nothing retries an answer it could read: a 4xx,
 * maintenance, an unreadable body.
 */
export function retryable(kind: RequestKind, failure: Failure): boolean {
  if (failure === 429) return true;
  if (kind === "write") return false;
  if (typeof failure === "number") return failure >= 500;
  return failure !== "unreadable" && failure !== "maintenance" && !FINAL_TRANSPORT.has(failure);
}

/**
 * Statuses that refuse a request for its body (malformed, too large, not processable): the service
 * did nothing, and another request may fare better.
 */
const REFUSED_BODY: ReadonlySet<number> = new Set([400, 413, 422]);

/**
 * Statuses that refuse any request sent so, before any work: a wrong address or method, framing
 * the service does not take. Every request of the run would be refused alike.
 */
const REFUSED_REQUEST: ReadonlySet<number> = new Set([404, 405, 411, 414, 415, 431]);

/**
 * Whether a write that failed so may have done its work: then its answer is lost, and only asking
 * the service by reference can tell (a TransportError, maybe delivered, out of `request`). Nothing
 * was done when the service refused the request as it stood (429, 401/403, REFUSED_BODY,
 * REFUSED_REQUEST), said it was under maintenance, or redirected it elsewhere, nor when the
 * request never reached it (`maybeDelivered` false). Any other status (a proxy's 408 or 499, a 409,
 * a 5xx a proxy sent after the service did the work) and an answer that cannot be read are lost.
 */
export function lostAnswer(failure: Failure, maybeDelivered: boolean): boolean {
  if (typeof failure === "number")
    return (
      failure !== 429 &&
      failure !== 401 &&
      failure !== 403 &&
      !REFUSED_BODY.has(failure) &&
      !REFUSED_REQUEST.has(failure)
    );
  if (failure === "unreadable" || failure === "too-large") return true;
  if (failure === "maintenance" || failure === "redirect") return false;
  return maybeDelivered;
}

/** An HTTP refusal (`http.N`, out of `request`) of this request's body alone (see REFUSED_BODY). */
export function refusedForItsBody(error: FacturarError): boolean {
  const status = /^http\.(\d+)$/.exec(error.code);
  return status !== null && REFUSED_BODY.has(Number(status[1]));
}

/** The service could not be reached (a network failure, retried or not). */
export function unreachable(message: Text): UnavailableError {
  return new UnavailableError(message, msg("check the network, or the service status with `facturar status`"));
}

/** One attempt's failure, as the policy reads it (`failure`), with the error it ends in if not retried. */
class Failed extends Error {
  constructor(
    readonly failure: Failure,
    readonly error: Error,
    /** How long the service asked to wait (a 429's Retry-After). */
    readonly waitMs?: number,
    /** A download's answer: given back as it is when no attempt is left. */
    readonly response?: HttpResponse,
  ) {
    super(error.message);
  }
}

/**
 * See ClientOptions.spacingMarginMs. Measured against `facturar sandbox --like-production` on a
 * busy 2-core machine when gaps were counted from a request's turn: 5 ms still met a 429 about
 * once in 100 calls (each costs its Retry-After, 1 s, to every lane), 10 ms none in three runs of
 * 100. Counted from when a request left (see gate), what happened between the turn and the
 * write no longer needs covering: what is left is how the way there and the service's clock vary.
 */
const SPACING_MARGIN_MS = 5;

/** What each 429 adds to the margin (up to a quarter of the interval): see spacingMarginMs. */
const MARGIN_STEP_MS = 10;

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
   * The one request path: a method of the service, the credentials added to `body`, spaced (see
   * gate) and retried under `retryable`. A read that fails for good throws the service's error,
   * or UnavailableError once the network kept failing. A write throws TransportError (maybe
   * delivered) when its answer is lost (see lostAnswer): the caller asks the service by reference
   * before sending it again; any other error says the service did nothing. `list`: an answer that
   * is a JSON array is taken too (returned as it is), for methods whose shape is undocumented.
   */
  async request(method: string, body: Answer = {}, opts: { write?: boolean; list?: boolean } = {}): Promise<Answer> {
    const kind = opts.write ? "write" : "read";
    // Instant issuing may take the service up to about 90 s.
    const timeoutMs = opts.write ? (this.options.issueTimeoutMs ?? 95_000) : (this.options.readTimeoutMs ?? 30_000);
    try {
      return await this.retrying(kind, method, () => this.attempt(method, body, timeoutMs, opts.list ?? false));
    } catch (error) {
      if (!(error instanceof Failed)) throw error;
      const cause = error.error;
      if (kind === "write") {
        // Nothing done (refused as it stood, or never reached): the service's own error, or the network's.
        if (!lostAnswer(error.failure, cause instanceof TransportError && cause.maybeDelivered)) throw cause;
        throw cause instanceof TransportError
          ? cause
          : new TransportError(cause instanceof FacturarError ? cause.text : cause.message, "dropped", true);
      }
      if (cause instanceof TransportError) throw unreachable(msg("{message} (after retries)", { message: cause.text }));
      throw cause;
    }
  }

  /** `request` of a read: a call that changes nothing. */
  read(method: string, body: Answer = {}, opts: { list?: boolean } = {}): Promise<Answer> {
    return this.request(method, body, opts);
  }

  /**
   * Downloads a document link (no credentials are sent), under the policy of ./documents.ts: a
   * link it refuses throws DocumentLinkError before any connection, and a host that resolves only
   * to addresses it refuses fails with TransportError `refused-address`. Whether the body is a
   * PDF is the caller's to check (`isPdf`).
   *
   * Retried as a read is (`retryable`), on 429 (after its Retry-After), 5xx and lost connections:
   * lanes fetch documents several at a time, and a busy service's "too many requests" must not
   * cost a PDF. Not spaced: the service does not count downloads. The last answer is returned as
   * it is; redirects, oversized answers and refused addresses are not retried.
   */
  async download(url: URL, maxBytes = MAX_DOCUMENT_BYTES): Promise<HttpResponse> {
    const target = documentUrl(this.base, url.href);
    const allowAddress = (ip: string) => addressAllowed(this.base, target, ip);
    const label = `GET ${target.origin}${target.pathname}`;
    try {
      return await this.retrying("download", label, async () => {
        // Each attempt in a quiet moment of the API's spacing (see quietMoment).
        await this.quietMoment();
        this.options.log?.(label);
        let response: HttpResponse;
        try {
          response = await exchange(target, {
            method: "GET",
            timeoutMs: this.options.readTimeoutMs ?? 30_000,
            maxBytes,
            headers: { "user-agent": this.options.userAgent },
            allowAddress,
          });
        } catch (error) {
          throw error instanceof TransportError ? new Failed(error.kind, error) : error;
        }
        // Any other answer is the caller's to read (a 404 or a 410: an expired link, regenerated there).
        if (!retryable("download", response.status)) return response;
        throw new Failed(response.status, new Error(`HTTP ${response.status}`), retryAfterMs(response), response);
      });
    } catch (error) {
      if (!(error instanceof Failed)) throw error;
      if (error.response) return error.response;
      throw error.error;
    }
  }

  /**
   * `attempt` again while `retryable` says so, at most `retries` times: after the service's
   * Retry-After, else an exponential backoff with jitter. Throws the last Failed.
   */
  private async retrying<T>(kind: RequestKind, label: string, attempt: () => Promise<T>): Promise<T> {
    const retries = this.options.retries ?? 4;
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof Failed) || n > retries || !retryable(kind, error.failure)) throw error;
        const backoff = (this.options.backoffMs ?? 500) * 2 ** (n - 1);
        const wait = error.waitMs ?? backoff / 2 + Math.random() * backoff;
        this.options.log?.(
          concat(
            `retrying ${label} in ${Math.round(wait)} ms (`,
            cleanMessage(textOf(error.error), this.options.credentials),
            ")",
          ),
        );
        // A Retry-After holds every spaced request of this client: the gate waits it out (see
        // attempt). A download is not spaced, so it waits here.
        if (error.waitMs === undefined || kind === "download") await this.sleep(wait);
      }
    }
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

  /** One attempt of a request: its answer, or Failed saying how it failed. */
  private async attempt(method: string, body: Answer, timeoutMs: number, list: boolean): Promise<Answer> {
    const url = new URL(method, this.base);
    const credentials = this.options.credentials;
    const payload = JSON.stringify({ ...body, ...credentials });
    const log = this.options.log;
    // Everything but the send itself is done before the turn: the send follows it at once.
    const line = log ? shownRequest(url, body, credentials) : undefined;
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
      if (!(error instanceof TransportError)) throw error;
      // A redirect's Location, say, is the server's text: it may echo the credentials.
      const cleaned = new TransportError(cleanMessage(error.text, credentials), error.kind, error.maybeDelivered);
      log?.(concat(`  ${cleaned.kind}: `, cleaned.text));
      // Nothing reached the service: the same request goes where it is now, if it has moved.
      if (error.kind === "refused" && !error.maybeDelivered && (await this.moved(url))) {
        log?.(concat("  ", msg("the service moved to {url}", { url: this.base.origin })));
        return this.attempt(method, body, timeoutMs, list);
      }
      if (cleaned.kind === "redirect" || cleaned.kind === "too-large")
        throw new Failed(cleaned.kind, new UnavailableError(cleaned.text, undefined, `service.${cleaned.kind}`));
      throw new Failed(cleaned.kind, cleaned);
    }
    // A transport that does not tell when the request left: it has, now that it is answered.
    left();
    // A server that echoes the credentials back (in an error text, say) must not get them printed
    // or journaled: they are cut out of the answer before anything reads it (from the raw text,
    // then from each decoded string: see cleanAnswer).
    const text = redactAnswer(response.body.toString("utf8"), credentials);
    // The log shows the body as it came (an HTML page may hold raw escapes): printable first, then
    // redacted, so that taking a control sequence out cannot make a credential whole again.
    // Cut to twice what is shown before cleaning (an answer may be megabytes), then to what is shown.
    log?.(
      `  ${response.status} in ${Date.now() - started} ms: ${cleanText(text.slice(0, 8000), credentials).slice(0, 4000)}`,
    );
    // Nested past any real answer, or a key given twice: nothing in it can be read surely.
    let unreadable: Text | undefined = answerShapeProblem(text);
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
          ? (cleanAnswer(parsed, credentials) as Answer)
          : undefined;
    } catch (error) {
      if (!(error instanceof KeyCollision)) throw error;
      unreadable = error.text;
    }
    const message = errorTexts(answer?.errores).join("; ") || undefined;
    const status = response.status;
    if (status === 401 || status === 403) {
      throw new Failed(
        status,
        new AccessDeniedError(concat(msg("access denied (HTTP {status})", { status }), message ? `: ${message}` : "")),
      );
    }
    if (status === 429) {
      const waitMs = retryAfterMs(response);
      // Too many requests from this client: none of its requests goes before the service's time.
      if (waitMs !== undefined) this.notBefore = Math.max(this.notBefore, performance.now() + waitMs);
      // Spaced, and still too close on arrival: the way there varies more than the margin allows.
      const interval = this.options.minIntervalMs ?? 0;
      if (interval > 0) this.margin = Math.min(this.margin + MARGIN_STEP_MS, Math.ceil(interval / 4));
      throw new Failed(
        status,
        new UnavailableError(
          msg("too many requests (HTTP 429)"),
          msg("lower the request rate"),
          "service.rate-limited",
        ),
        waitMs,
      );
    }
    if (status >= 500) {
      throw new Failed(
        status,
        new UnavailableError(
          msg("the service failed (HTTP {status})", { status }),
          msg("try again later; `facturar status` shows the service's state"),
        ),
      );
    }
    if (status !== 200) {
      throw new Failed(
        status,
        new FacturarError(
          concat(
            msg("the service answered HTTP {status} to {method}", { status, method }),
            message ? `: ${message}` : "",
          ),
          "rejected",
          `http.${status}`,
          status === 404 ? msg("is base_url the API's /app/api/v2 address?") : undefined,
        ),
      );
    }
    if (!answer) {
      throw new Failed(
        "unreadable",
        new UnavailableError(
          unreadable
            ? msg("the service's answer to {method} cannot be read: {problem}", { method, problem: unreadable })
            : msg("the service answered {method} with something that is not a JSON object", { method }),
          msg("the base URL may point at a web page, or a proxy is in the way"),
          "service.not-json",
        ),
      );
    }
    if (answer.mantenimiento !== undefined && Number(answer.mantenimiento) !== 0) {
      throw new Failed(
        "maintenance",
        new UnavailableError(
          concat(
            answer.mantenimiento_hasta
              ? msg("the service is under maintenance until {until}", {
                  until: printable(String(answer.mantenimiento_hasta)),
                })
              : msg("the service is under maintenance"),
            message ? `: ${message}` : "",
          ),
          msg("try again after that time"),
          "service.maintenance",
        ),
      );
    }
    return answer;
  }
}
