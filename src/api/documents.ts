/**
 * Where a voucher's documents may be downloaded from. The service answers `nuevo` and
 * `regenerar_pdf` with temporary links (api-v2.md §6.1, §12 "PDF expiry") and does not say which
 * host serves them, so a link is judged by itself:
 *
 * - on base_url's own host, with base_url's scheme and port: accepted whatever its address (the embedded
 *   sandbox serves over http on 127.0.0.1; a company may run the service on a LAN address);
 * - on loopback (127.0.0.0/8, ::1, `localhost`): accepted over http or https, and only when
 *   base_url is on loopback too (the embedded sandbox, a test): a service elsewhere has no
 *   business sending this machine's client to this machine's own services;
 * - anywhere else: https only, and only to a public address.
 *
 * Other schemes, a user name or password in the link, and private, link-local, unspecified,
 * multicast or reserved addresses (IPv4-mapped IPv6 forms included) are refused. `documentUrl`
 * judges the link before connecting; `addressAllowed` judges each address its host resolves to,
 * at connect time (see `allowAddress` in ./http.ts), so that DNS cannot move a public name onto a
 * private network. Hosts are judged as the WHATWG URL parser normalises them: `2130706433`,
 * `0x7f.1` and `017700000001` are all `127.0.0.1` by then.
 */

import { isIP, isIPv4 } from "node:net";
import { FacturarError } from "../errors.js";
import { type Message, msg, type Text } from "../i18n/message.js";

/** The most a document may weigh; the service's PDFs are tens of kilobytes. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

export type AddressClass = "loopback" | "public" | "private" | "link-local" | "unspecified" | "multicast" | "reserved";

/** A document link refused before any connection; the message says why. */
export class DocumentLinkError extends FacturarError {
  constructor(message: Text) {
    // The service's link, not a bug of ours: told as the service's failure (exit 6).
    super(
      message,
      "unavailable",
      "document.link-refused",
      msg("the service gave a link facturar does not follow; the voucher's PDF is in the service's own web app"),
    );
  }
}

/**
 * What kind of address `ip` is (IPv4 dotted, or IPv6 with or without brackets and zone).
 * IPv4-mapped and NAT64 IPv6 addresses are classed by the IPv4 address they carry. Anything that
 * is not an address is "reserved", so that a caller refuses it.
 */
export function classifyAddress(ip: string): AddressClass {
  const text = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (isIPv4(text)) return classifyIPv4(text.split(".").map(Number));
  const groups = ipv6Groups(text);
  return groups ? classifyIPv6(groups) : "reserved";
}

function classifyIPv4(octets: number[]): AddressClass {
  const [a = 0, b = 0, c = 0] = octets;
  if (a === 0) return "unspecified"; // 0.0.0.0/8, "this network"
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && (b & 0xf0) === 16) || (a === 192 && b === 168)) return "private";
  if (a === 100 && (b & 0xc0) === 64) return "private"; // 100.64/10, carrier-grade NAT
  if (a === 169 && b === 254) return "link-local"; // cloud metadata lives at 169.254.169.254
  if (a >= 224 && a < 240) return "multicast";
  if (a >= 240) return "reserved"; // 240/4 and the broadcast address
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return "reserved"; // protocol assignments, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return "reserved"; // 6to4 relays
  if (a === 198 && (b & 0xfe) === 18) return "reserved"; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return "reserved"; // TEST-NET-2, 3
  return "public";
}

function classifyIPv6(g: number[]): AddressClass {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => classifyIPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const [g0 = 0, g1 = 0, g2 = 0, , , g5 = 0, g6 = 0, g7 = 0] = g;
  if (zeros(8)) return "unspecified";
  if (zeros(7) && g7 === 1) return "loopback";
  if (zeros(5) && g5 === 0xffff) return v4(g6, g7); // ::ffff:10.0.0.1
  if (g0 === 0x64 && g1 === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g6, g7); // NAT64
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private"; // local-use NAT64
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // fc00::/7, unique local
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // fec0::/10, the old site-local
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  if (g0 === 0x2002) return v4(g1, g2); // 6to4 carries an IPv4 address
  if (g0 === 0x2001 && (g1 < 0x200 || g1 === 0xdb8)) return "reserved"; // protocol assignments, documentation
  if (g0 === 0x3fff && g1 < 0x1000) return "reserved"; // documentation
  return (g0 & 0xe000) === 0x2000 ? "public" : "reserved"; // global unicast is 2000::/3
}

/** The eight 16-bit groups of an IPv6 address (zone dropped), or undefined if it is not one. */
function ipv6Groups(ip: string): number[] | undefined {
  let text = ip.replace(/%.*$/, "");
  if (isIP(text) !== 6) return undefined;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const [head = "", rest] = text.split("::");
  const split = (part: string) => (part === "" ? [] : part.split(":").map((x) => Number.parseInt(x, 16)));
  const before = split(head);
  const after = rest === undefined ? [] : split(rest);
  const gap = rest === undefined ? 0 : 8 - tail.length - before.length - after.length;
  return [...before, ...new Array<number>(gap).fill(0), ...after, ...tail];
}

/** The link's host as an address (IPv6 without brackets), or undefined when it is a name. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/** base_url's host, scheme and port: trusted as base_url itself is (another port may be another service). */
function onBaseHost(base: URL, url: URL): boolean {
  return url.hostname === base.hostname && url.protocol === base.protocol && url.port === base.port;
}

/** A loopback address, or `localhost` (which must then resolve to loopback). */
function namesLoopback(url: URL): boolean {
  const ip = literalAddress(url);
  return ip ? classifyAddress(ip) === "loopback" : url.hostname === "localhost";
}

function refusedAddress(host: string, kind: Exclude<AddressClass, "public" | "loopback">): Message {
  switch (kind) {
    case "private":
      return msg("refusing a document link to {host}: a private network address", { host });
    case "link-local":
      return msg("refusing a document link to {host}: a link-local address", { host });
    case "unspecified":
      return msg("refusing a document link to {host}: an unspecified address", { host });
    case "multicast":
      return msg("refusing a document link to {host}: a multicast address", { host });
    case "reserved":
      return msg("refusing a document link to {host}: a reserved address", { host });
  }
}

/**
 * The document link `link` as a URL, if the policy above lets it be fetched for a client of
 * `base`; throws DocumentLinkError otherwise. Names other than base_url's host and `localhost`
 * pass here; `addressAllowed` judges what they resolve to when the connection is made.
 */
export function documentUrl(base: URL, link: string): URL {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new DocumentLinkError(msg("not a URL: {link}", { link: JSON.stringify(link.slice(0, 80)) }));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new DocumentLinkError(msg("refusing a {protocol} document link", { protocol: url.protocol }));
  // The link itself is not printed: it would show the password.
  if (url.username !== "" || url.password !== "")
    throw new DocumentLinkError(msg("refusing a document link with a user name or password in it"));
  if (onBaseHost(base, url)) return url;
  if (namesLoopback(url)) {
    if (namesLoopback(base)) return url;
    throw new DocumentLinkError(
      msg("refusing a document link to {host}: loopback, and the service is not on this machine", {
        host: url.hostname,
      }),
    );
  }
  const ip = literalAddress(url);
  const kind = ip ? classifyAddress(ip) : "public";
  if (kind !== "public" && kind !== "loopback") throw new DocumentLinkError(refusedAddress(url.hostname, kind));
  if (url.protocol !== "https:")
    throw new DocumentLinkError(
      msg("refusing a plain-http document link to {host}: http is accepted only on loopback", { host: url.hostname }),
    );
  return url;
}

/**
 * Whether a connection for the document `url` (as `documentUrl` returned it) may go to `ip`, one
 * of the addresses its host resolved to: any address on base_url's host, loopback for a loopback
 * link of a loopback service, a public address for anything else.
 */
export function addressAllowed(base: URL, url: URL, ip: string): boolean {
  if (onBaseHost(base, url)) return true;
  const kind = classifyAddress(ip);
  if (namesLoopback(url)) return kind === "loopback" && namesLoopback(base);
  return url.protocol === "https:" && kind === "public";
}

/** Whether a downloaded body is a PDF: it starts with `%PDF-`. */
export function isPdf(body: Uint8Array): boolean {
  return body.length >= 5 && Buffer.from(body.buffer, body.byteOffset, 5).toString("latin1") === "%PDF-";
}
