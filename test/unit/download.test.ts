/**
 * Document downloads at connect time: the address filter of exchange() and ApiClient.download().
 * Only loopback is ever connected to; names other than localhost resolve through a stand-in for
 * dns.lookup, so nothing here asks a real resolver.
 */
import dns, { type LookupAddress } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { classifyAddress, DocumentLinkError, isPdf, MAX_DOCUMENT_BYTES } from "../../src/api/documents.js";
import { exchange, filteredLookup, TransportError } from "../../src/api/http.js";

/** A loopback server that counts connections and requests; `reply` says what it answers. */
let server: Server;
let port: number;
let connections = 0;
let requests = 0;
let reply: (n: number) => {
  status: number;
  body: Buffer | string;
  type?: string;
  headers?: Record<string, string>;
} = () => ({
  status: 200,
  body: "%PDF-1.7\n",
});

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    const { status, body, type, headers } = reply(requests);
    res.writeHead(status, { "content-type": type ?? "application/pdf", ...headers });
    res.end(body);
  });
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  connections = 0;
  requests = 0;
  reply = () => ({ status: 200, body: "%PDF-1.7\n" });
  vi.restoreAllMocks();
});

/** Makes dns.lookup answer `addresses` for `name` (and fail for anything else): no real resolver. */
function resolveName(name: string, addresses: LookupAddress[]) {
  const calls: string[] = [];
  vi.spyOn(dns, "lookup").mockImplementation(((host: string, _options: unknown, callback: any) => {
    calls.push(host);
    if (host === name) process.nextTick(callback, null, addresses);
    else process.nextTick(callback, Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }));
  }) as any);
  return calls;
}

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

const GET = { method: "GET" as const, timeoutMs: 5_000 };

describe("exchange with allowAddress", () => {
  it("connects when the address is allowed", async () => {
    const response = await exchange(new URL(`http://127.0.0.1:${port}/1.pdf`), { ...GET, allowAddress: () => true });
    expect(response.body.toString()).toBe("%PDF-1.7\n");
    expect(connections).toBe(1);
  });

  it("refuses an address written in the URL without connecting", async () => {
    const seen: [string, number][] = [];
    const error = await failure(
      exchange(new URL(`http://127.0.0.1:${port}/1.pdf`), {
        ...GET,
        allowAddress: (ip, family) => {
          seen.push([ip, family]);
          return false;
        },
      }),
    );
    expect(error.kind).toBe("refused-address");
    expect(error.maybeDelivered).toBe(false);
    expect(error.message).toContain("127.0.0.1");
    expect(seen).toEqual([["127.0.0.1", 4]]);
    expect(connections).toBe(0);
  });

  it("judges an IPv6 address written in the URL without its brackets", async () => {
    const seen: string[] = [];
    const error = await failure(
      exchange(new URL(`http://[::1]:${port}/1.pdf`), {
        ...GET,
        allowAddress: (ip) => {
          seen.push(ip);
          return false;
        },
      }),
    );
    expect(error.kind).toBe("refused-address");
    expect(seen).toEqual(["::1"]);
  });

  it("refuses a name that resolves only to refused addresses, at connect time, without connecting", async () => {
    const seen: string[] = [];
    const error = await failure(
      exchange(new URL(`http://localhost:${port}/1.pdf`), {
        ...GET,
        allowAddress: (ip) => {
          seen.push(ip);
          return classifyAddress(ip) !== "loopback";
        },
      }),
    );
    expect(error.kind).toBe("refused-address");
    expect(error.maybeDelivered).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((ip) => classifyAddress(ip) === "loopback")).toBe(true);
    expect(connections).toBe(0);
  });

  it("filters what a rebinding name resolves to, through the resolver dns.lookup stands for", async () => {
    const calls = resolveName("docs.example.test", [{ address: "127.0.0.1", family: 4 }]);
    const error = await failure(
      exchange(new URL(`http://docs.example.test:${port}/1.pdf`), {
        ...GET,
        allowAddress: (ip) => classifyAddress(ip) === "public",
      }),
    );
    expect(error.kind).toBe("refused-address");
    expect(error.message).toContain("docs.example.test");
    expect(calls).toEqual(["docs.example.test"]);
    expect(connections).toBe(0);
  });

  it("connects to the allowed one of several addresses", async () => {
    resolveName("docs.example.test", [
      { address: "10.0.0.1", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ]);
    const response = await exchange(new URL(`http://docs.example.test:${port}/1.pdf`), {
      ...GET,
      allowAddress: (ip) => classifyAddress(ip) === "loopback",
    });
    expect(response.status).toBe(200);
    expect(connections).toBe(1);
  });

  it("does not reuse a pooled connection, which would skip the filter", async () => {
    await exchange(new URL(`http://localhost:${port}/1.pdf`), GET); // pooled (keep-alive)
    expect(connections).toBe(1);
    const error = await failure(
      exchange(new URL(`http://localhost:${port}/1.pdf`), { ...GET, allowAddress: () => false }),
    );
    expect(error.kind).toBe("refused-address");
    expect(requests).toBe(1);
  });
});

describe("filteredLookup", () => {
  const answers: LookupAddress[] = [
    { address: "10.0.0.1", family: 4 },
    { address: "93.184.216.34", family: 4 },
    { address: "fe80::1", family: 6 },
    { address: "2606:2800:220:1::1", family: 6 },
  ];
  const fake = (_host: string, _options: dns.LookupAllOptions, callback: (e: null, all: LookupAddress[]) => void) =>
    callback(null, answers);
  const lookup = filteredLookup((ip) => classifyAddress(ip) === "public", fake);

  it("passes on the allowed addresses when Node asks for all of them", () => {
    let got: unknown;
    lookup("docs.example.test", { all: true }, ((_e: unknown, all: unknown) => {
      got = all;
    }) as any);
    expect(got).toEqual([answers[1], answers[3]]);
  });

  it("passes on the first allowed address when Node asks for one", () => {
    let got: unknown[] = [];
    lookup("docs.example.test", {}, (...args: unknown[]) => {
      got = args;
    });
    expect(got).toEqual([null, "93.184.216.34", 4]);
  });

  it("fails, naming what the name resolved to, when none is allowed", () => {
    const none = filteredLookup(() => false, fake);
    let got: any;
    none("docs.example.test", { all: true }, ((e: unknown) => {
      got = e;
    }) as any);
    expect(got.refusedAddresses).toEqual(answers.map((a) => a.address));
  });
});

describe("ApiClient.download", () => {
  // A service on loopback, as the embedded sandbox is: its links may point to loopback.
  const client = (base = "http://127.0.0.1:9/app/api/v2") =>
    new ApiClient({
      baseUrl: base,
      credentials: { usertoken: "u", apikey: "k", apitoken: "t" },
      userAgent: "facturar-test",
      retries: 2,
      backoffMs: 1,
      sleep: async () => {},
    });

  it("returns an HTML page served instead of a PDF as it is, once: isPdf decides", async () => {
    reply = () => ({ status: 200, body: "<!doctype html><title>Link expired</title>", type: "text/html" });
    const response = await client().download(new URL(`http://127.0.0.1:${port}/documentos/1.pdf`));
    expect(response.status).toBe(200);
    expect(isPdf(response.body)).toBe(false);
    expect(requests).toBe(1);
  });

  it("fetches a PDF from the sandbox's own host and port", async () => {
    const response = await client(`http://127.0.0.1:${port}/app/api/v2`).download(
      new URL(`http://127.0.0.1:${port}/documentos/1.pdf`),
    );
    expect(isPdf(response.body)).toBe(true);
  });

  it("still retries a 503", async () => {
    reply = (n) => (n === 1 ? { status: 503, body: "busy", type: "text/plain" } : { status: 200, body: "%PDF-1.4" });
    const response = await client().download(new URL(`http://localhost:${port}/1.pdf`));
    expect(isPdf(response.body)).toBe(true);
    expect(requests).toBe(2);
  });

  it("waits as long as a 429's Retry-After says, in seconds or as a date, at most a minute", async () => {
    const waited: number[] = [];
    const patient = new ApiClient({
      baseUrl: "http://127.0.0.1:9/app/api/v2",
      credentials: { usertoken: "u", apikey: "k", apitoken: "t" },
      userAgent: "facturar-test",
      retries: 4,
      backoffMs: 1,
      sleep: async (ms) => void waited.push(ms),
    });
    const busy = (after: string) => ({
      status: 429,
      body: "slow down",
      type: "text/plain",
      headers: { "retry-after": after },
    });
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    reply = (n) =>
      [busy("2"), busy(inTenSeconds), busy("3600"), busy("not a time")][n - 1] ?? { status: 200, body: "%PDF-1.4" };
    const response = await patient.download(new URL(`http://localhost:${port}/1.pdf`));
    expect(isPdf(response.body)).toBe(true);
    expect(requests).toBe(5);
    expect(waited[0]).toBe(2000);
    // An HTTP date: the time left until then (whole seconds, so 9 to 10 s from now).
    expect(waited[1]).toBeGreaterThan(8_000);
    expect(waited[1]).toBeLessThanOrEqual(10_000);
    expect(waited[2]).toBe(60_000);
    // Neither: the client's own backoff (1 ms doubled three times, jittered).
    expect(waited[3]).toBeLessThan(13);
  });

  it("refuses a link the policy refuses before connecting", async () => {
    await expect(client().download(new URL("file:///etc/passwd"))).rejects.toThrow(DocumentLinkError);
    await expect(client().download(new URL("https://169.254.169.254/latest/meta-data/"))).rejects.toThrow(/link-local/);
    await expect(client().download(new URL(`http://user:pw@127.0.0.1:${port}/1.pdf`))).rejects.toThrow(
      /user name or password/,
    );
    expect(connections).toBe(0);
  });

  it("refuses a loopback link from a service that is not on loopback, before connecting", async () => {
    const remote = client("https://api.example.test/app/api/v2");
    await expect(remote.download(new URL(`http://127.0.0.1:${port}/1.pdf`))).rejects.toThrow(
      /127\.0\.0\.1: loopback, and the service is not on this machine/,
    );
    await expect(remote.download(new URL(`http://localhost:${port}/1.pdf`))).rejects.toThrow(DocumentLinkError);
    expect(connections).toBe(0);
  });

  it("does not retry a public name that resolves to loopback", async () => {
    const calls = resolveName("docs.example.test", [{ address: "127.0.0.1", family: 4 }]);
    const error = await failure(client().download(new URL(`https://docs.example.test:${port}/1.pdf`)));
    expect(error.kind).toBe("refused-address");
    expect(error.maybeDelivered).toBe(false);
    expect(calls).toEqual(["docs.example.test"]);
    expect(connections).toBe(0);
  });

  it("refuses a body over 20 MB by default, without retrying", async () => {
    const big = Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x20);
    big.write("%PDF-1.7\n");
    reply = () => ({ status: 200, body: big });
    const error = await failure(client().download(new URL(`http://127.0.0.1:${port}/big.pdf`)));
    expect(error.kind).toBe("too-large");
    expect(requests).toBe(1);
  });
});
