/**
 * One HTTP exchange with the service: TLS 1.2 at least, no redirects followed (a redirect would
 * carry the credentials elsewhere), a deadline for the whole exchange, and a cap on what a server
 * may send back. With `allowAddress`, the exchange connects only to addresses it accepts.
 */

import type { LookupAddress, LookupAllOptions } from "node:dns";
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import { createRequire } from "node:module";
import { isIP, type LookupFunction } from "node:net";
import { WordedError } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Where a redirect pointed, without its query string or fragment: a hostile or misconfigured
 * server may put the credentials it was sent there, and where it points is what the user needs.
 * (The path is still the server's text: the client redacts it with the answers.)
 */
export function shownLocation(from: URL, location: string | undefined): string {
  if (!location) return "?";
  try {
    const to = new URL(location, from);
    return `${to.origin}${to.pathname}${to.search || to.hash ? "?…" : ""}`;
  } catch {
    return "?";
  }
}

/** Why an exchange produced no response: the caller decides what that means for a voucher. */
export class TransportError extends WordedError {
  constructor(
    text: Text,
    /**
     * `timeout`, `dropped` (connection closed or reset), `refused`, `too-large`, `redirect`,
     * `refused-address` (the host is or resolves only to addresses `allowAddress` refuses: no
     * connection was made, and trying again would not help), `other`
     */
    readonly kind: "timeout" | "dropped" | "refused" | "too-large" | "redirect" | "refused-address" | "other",
    /** Whether any of the request may have reached the server. */
    readonly maybeDelivered: boolean,
  ) {
    super(text);
  }
}

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 16 });
let https: { request: typeof import("node:https").request; agent: HttpsAgent } | undefined;
/** node:https (and TLS under it) loaded at the first https exchange: a loopback service needs neither. */
function httpsModule(): NonNullable<typeof https> {
  if (!https) {
    const { Agent, request } = createRequire(import.meta.url)("node:https") as typeof import("node:https");
    https = { request, agent: new Agent({ keepAlive: true, maxSockets: 16, minVersion: "TLSv1.2" }) };
  }
  return https;
}

const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

export interface HttpOptions {
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  maxBytes?: number;
  /**
   * Which addresses the connection may go to. Checked on an address in the URL before anything
   * is sent, and on each address a name resolves to, at connect time (so a name that resolves
   * elsewhere on a second lookup gains nothing). Such an exchange uses a connection of its own,
   * never one pooled by another exchange.
   */
  allowAddress?: (ip: string, family: number) => boolean;
  /** Called once the whole request has been handed to the connection (after connecting, if it had to). */
  onSent?: () => void;
}

/**
 * A `lookup` for http(s).request that passes on only the addresses `allow` accepts; when none is
 * left, it fails with an error whose `refusedAddresses` lists what the name resolved to. `resolve`
 * is dns.lookup (looked up at each call, so that tests can stand in for the resolver).
 */
export function filteredLookup(
  allow: (ip: string, family: number) => boolean,
  resolve: (
    hostname: string,
    options: LookupAllOptions,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => void = (hostname, options, callback) =>
    // Required at the first lookup: only a document download on a named host needs node:dns.
    (createRequire(import.meta.url)("node:dns") as typeof import("node:dns")).lookup(hostname, options, callback),
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const allowed = addresses.filter((a) => allow(a.address, a.family));
      const first = allowed[0];
      if (!first) {
        const refused = Object.assign(new Error(`${hostname}: no allowed address`), {
          code: "EADDRREFUSED",
          refusedAddresses: addresses.map((a) => a.address),
        });
        return callback(refused, "", 0);
      }
      // Node asks for every address when it tries them in turn (autoSelectFamily), else for one.
      if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

function refusedAddressError(host: string, addresses: readonly string[]): TransportError {
  return new TransportError(
    msg("refusing to connect to {host} ({addresses}): address not allowed", {
      host,
      addresses: addresses.length > 0 ? addresses.join(", ") : "?",
    }),
    "refused-address",
    false,
  );
}

export function exchange(url: URL, opts: HttpOptions): Promise<HttpResponse> {
  const secure = url.protocol === "https:";
  const tls = secure ? httpsModule() : undefined;
  const send = tls ? tls.request : httpRequest;
  const maxBytes = opts.maxBytes ?? MAX_RESPONSE_BYTES;
  const allow = opts.allowAddress;
  if (allow) {
    // Node resolves no address written in the URL: `lookup` would never see it.
    const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const family = isIP(literal);
    if (family !== 0 && !allow(literal, family)) return Promise.reject(refusedAddressError(url.host, [literal]));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    let sent = false;
    const finish = (error: TransportError | undefined, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve(response as HttpResponse);
    };
    const req = send(
      url,
      {
        method: opts.method,
        // A pooled socket would skip `lookup`: a filtered exchange opens its own connection.
        agent: allow ? false : tls ? tls.agent : httpAgent,
        ...(allow ? { lookup: filteredLookup(allow) } : {}),
        headers: {
          ...(opts.body !== undefined
            ? { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(opts.body) }
            : {}),
          ...opts.headers,
        },
        ...(secure ? { minVersion: "TLSv1.2" as const } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          finish(
            new TransportError(
              msg("the server answered with a redirect ({status}) to {location}; not followed", {
                status,
                location: shownLocation(url, res.headers.location),
              }),
              "redirect",
              true,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            finish(
              new TransportError(
                msg("the answer is larger than {mb} MB; refused", { mb: Math.round(maxBytes / 1024 / 1024) }),
                "too-large",
                true,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => finish(undefined, { status, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", () =>
          finish(new TransportError(msg("the connection broke while the answer arrived"), "dropped", true)),
        );
        res.on("aborted", () =>
          finish(new TransportError(msg("the connection broke while the answer arrived"), "dropped", true)),
        );
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      finish(
        new TransportError(
          msg("no complete answer within {seconds} s", { seconds: Math.round(opts.timeoutMs / 1000) }),
          "timeout",
          sent,
        ),
      );
    }, opts.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException & { refusedAddresses?: string[] }) => {
      if (error.refusedAddresses) {
        finish(refusedAddressError(url.host, error.refusedAddresses));
        return;
      }
      const refused = error.code === "ECONNREFUSED" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN";
      // The handshake failed: a service offering only TLS 1.1 or older, or no cipher in common.
      const handshake = error.code === "EPROTO" || /^ERR_SSL_/.test(error.code ?? "");
      finish(
        new TransportError(
          refused
            ? msg("cannot connect to {host} ({code})", { host: url.host, code: String(error.code) })
            : handshake && /wrong version number/i.test(error.message)
              ? msg("{host} does not answer in TLS: is its address http rather than https? ({code})", {
                  host: url.host,
                  code: String(error.code),
                })
              : handshake
                ? msg(
                    "no secure connection with {host}: it offers no TLS 1.2 or newer, or no cipher in common ({code})",
                    {
                      host: url.host,
                      code: String(error.code),
                    },
                  )
                : msg("the connection failed ({code})", { code: error.code ?? error.message }),
          refused ? "refused" : "dropped",
          !refused && sent,
        ),
      );
    });
    req.on("finish", () => {
      sent = true;
      opts.onSent?.();
    });
    req.end(opts.body);
  });
}
