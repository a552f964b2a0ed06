/**
 * The client's one request path and its one retry policy (src/api/client.ts): `retryable` and
 * `lostAnswer` as tables, then ApiClient.request and download against a scripted transport, a
 * scripted server on loopback, and the exactly-once core in-process (the embedded service's logic
 * behind the client), so that a retry, or a 5xx on an issuing call, is caught here and not only by
 * the end-to-end runs.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AccessDeniedError,
  ApiClient,
  type ClientOptions,
  errorTexts,
  type Failure,
  lostAnswer,
  parseVoucherNumber,
  type RequestKind,
  refusedForItsBody,
  retryable,
  UnavailableError,
} from "../../src/api/client.js";
import { type HttpOptions, type HttpResponse, TransportError } from "../../src/api/http.js";
import { HttpService } from "../../src/api/protocol.js";
import { FacturarError } from "../../src/errors.js";
import { english, type Text } from "../../src/i18n/message.js";
import { failure } from "../helpers.js";
import { run, voucher, type World, world } from "../inprocess.js";

const CREDENTIALS = { usertoken: "qwertyuiopasdfgh", apikey: "4242", apitoken: "zxcvbnmlkjhgfdsq" };

const TRANSPORT_KINDS = ["timeout", "dropped", "refused", "other", "redirect", "too-large", "refused-address"] as const;
const STATUSES = [400, 401, 403, 404, 405, 408, 409, 411, 413, 414, 415, 422, 429, 431, 499, 500, 502, 503, 504];

describe("retryable: the one retry policy", () => {
  // Every kind against every failure: what a later attempt may mend, and only where sending again does no harm.
  const table: [Failure, read: boolean, write: boolean][] = [
    ...STATUSES.map((s): [Failure, boolean, boolean] => [s, s === 429 || s >= 500, s === 429]),
    ["timeout", true, false],
    ["dropped", true, false],
    ["refused", true, false],
    ["other", true, false],
    ["redirect", false, false],
    ["too-large", false, false],
    ["refused-address", false, false],
    ["unreadable", false, false],
    ["maintenance", false, false],
  ];

  it("covers every kind of transport failure", () => {
    for (const kind of TRANSPORT_KINDS)
      expect(
        table.some(([f]) => f === kind),
        kind,
      ).toBe(true);
  });

  for (const [failure, read, write] of table) {
    it(`${failure}: read ${read ? "retried" : "not retried"}, download as a read, write ${write ? "retried" : "not retried"}`, () => {
      const kinds: [RequestKind, boolean][] = [
        ["read", read],
        ["download", read],
        ["write", write],
      ];
      for (const [kind, expected] of kinds) expect(retryable(kind, failure), kind).toBe(expected);
    });
  }
});

describe("lostAnswer: a write's failure after which its work may have been done", () => {
  const nothingDone = [400, 401, 403, 404, 405, 411, 413, 414, 415, 422, 429, 431];
  it("a status that says the request was refused as it stood: nothing done", () => {
    for (const s of nothingDone) expect(lostAnswer(s, true), String(s)).toBe(false);
  });
  it("any other status (a proxy's 408 or 499, a 409, any 5xx, an unexpected 2xx) may follow the work", () => {
    for (const s of [201, 204, 408, 409, 499, 500, 502, 503, 504, 520])
      expect(lostAnswer(s, false), String(s)).toBe(true);
  });
  it("an answer that cannot be read, or is too large to read, may follow the work", () => {
    expect(lostAnswer("unreadable", false)).toBe(true);
    expect(lostAnswer("too-large", false)).toBe(true);
  });
  it("maintenance and a redirect are answers of nothing done", () => {
    expect(lostAnswer("maintenance", true)).toBe(false);
    expect(lostAnswer("redirect", true)).toBe(false);
  });
  it("a network failure is lost when any of the request may have reached the service", () => {
    for (const kind of ["timeout", "dropped", "refused", "other", "refused-address"] as const) {
      expect(lostAnswer(kind, true), kind).toBe(true);
      expect(lostAnswer(kind, false), kind).toBe(false);
    }
  });
  it("refusedForItsBody: 400, 413 and 422 refuse this request's body; other statuses every request", () => {
    for (const s of [400, 413, 422])
      expect(refusedForItsBody(new FacturarError("x", "rejected", `http.${s}`))).toBe(true);
    for (const s of [404, 405, 409, 411, 414, 415, 431, 500])
      expect(refusedForItsBody(new FacturarError("x", "rejected", `http.${s}`)), String(s)).toBe(false);
    expect(refusedForItsBody(new FacturarError("x", "rejected", "service.refused"))).toBe(false);
    expect(refusedForItsBody(new FacturarError("x", "rejected", "http.400x"))).toBe(false);
    expect(refusedForItsBody(new FacturarError("x", "rejected", "xhttp.400"))).toBe(false);
  });
});

/** One scripted step: an answer (status, body, headers) or a transport failure. */
type Step = { status: number; body?: string; headers?: Record<string, string> } | TransportError;

const json = (value: unknown, status = 200): Step => ({ status, body: JSON.stringify(value) });
const OK = json({ error: "N", errores: [] });
const lostConnection = () => new TransportError("the connection broke while the answer arrived", "dropped", true);
const neverReached = () => new TransportError("cannot connect to service.invalid (ECONNREFUSED)", "refused", false);

/** A client whose transport plays `steps` in order (the last one again when they run out). */
function scripted(steps: Step[], options: Partial<ClientOptions> = {}) {
  const attempts: string[] = [];
  const sleeps: number[] = [];
  const log: string[] = [];
  const client = new ApiClient({
    baseUrl: "http://service.invalid/app/api/v2",
    credentials: CREDENTIALS,
    userAgent: "test",
    retries: 3,
    backoffMs: 100,
    sleep: async (ms) => void sleeps.push(ms),
    log: (line) => log.push(english(line)),
    transport: async (url: URL, opts: HttpOptions): Promise<HttpResponse> => {
      attempts.push(url.pathname.replace("/app/api/v2/", ""));
      opts.onSent?.();
      const step = steps[Math.min(attempts.length - 1, steps.length - 1)] as Step;
      if (step instanceof TransportError) throw step;
      return { status: step.status, headers: step.headers ?? {}, body: Buffer.from(step.body ?? "") };
    },
    ...options,
  });
  return { client, attempts, sleeps, log };
}

describe("a read: retried on a 5xx, a 429 and a network failure, up to the limit", () => {
  it("a 5xx, then an answer: the answer, after a jittered exponential backoff", async () => {
    const { client, attempts, sleeps, log } = scripted([json({}, 503), json({}, 500), OK]);
    expect(await client.read("facturacion/consulta")).toEqual({ error: "N", errores: [] });
    expect(attempts).toHaveLength(3);
    // 100 ms, then 200 ms, each between half and one and a half times.
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThan(150);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThan(300);
    expect(log.filter((l) => l.startsWith("retrying facturacion/consulta in "))).toHaveLength(2);
  });

  it("a 5xx every time: retries+1 attempts, then the service's failure", async () => {
    const { client, attempts, sleeps } = scripted([json({}, 502)]);
    const error = await failure(client.read("facturacion/consulta"));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe("the service failed (HTTP 502)");
    expect(attempts).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it("a network failure every time: unavailable after retries (exit 6), never a TransportError", async () => {
    for (const lost of [lostConnection(), neverReached()]) {
      const { client, attempts } = scripted([lost], { retries: 2 });
      const error = await failure(client.read("facturacion/consulta"));
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error.message).toBe(`${lost.message} (after retries)`);
      expect(error).toMatchObject({ outcome: "unavailable", hint: expect.stringMatching(/facturar status/) });
      expect(attempts).toHaveLength(3);
    }
  });

  it("a 429 with Retry-After: no request of the client goes before it, then the answer", async () => {
    const { client, attempts, sleeps } = scripted([
      { status: 429, body: "slow down", headers: { "retry-after": "2" } },
      OK,
    ]);
    expect(await client.read("facturacion/consulta")).toMatchObject({ error: "N" });
    expect(attempts).toHaveLength(2);
    // The wait is the gate's (performance.now() moved a little since the 429: at most 2 s).
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(1900);
    expect(sleeps[0]).toBeLessThanOrEqual(2000);
  });

  it("a 429 every time: rate-limited after the last retry", async () => {
    const { client, attempts } = scripted([{ status: 429, body: "" }], { retries: 1 });
    const error = await failure(client.read("facturacion/consulta"));
    expect(error).toMatchObject({ code: "service.rate-limited", outcome: "unavailable" });
    expect(attempts).toHaveLength(2);
  });

  it("what a later attempt would not mend is not retried: 4xx, denied, a redirect, too large, unreadable, maintenance", async () => {
    const cases: [Step, (e: Error) => void][] = [
      [json({ errores: ["mal"] }, 400), (e) => expect(e).toMatchObject({ code: "http.400", outcome: "rejected" })],
      [json({}, 404), (e) => expect(e).toMatchObject({ code: "http.404", hint: expect.stringMatching(/base_url/) })],
      [json({}, 408), (e) => expect(e).toMatchObject({ code: "http.408" })],
      [json({ errores: ["token"] }, 401), (e) => expect(e).toBeInstanceOf(AccessDeniedError)],
      [json({}, 403), (e) => expect(e).toBeInstanceOf(AccessDeniedError)],
      [
        new TransportError("redirect to elsewhere", "redirect", true),
        (e) => expect(e).toMatchObject({ code: "service.redirect" }),
      ],
      [new TransportError("too big", "too-large", true), (e) => expect(e).toMatchObject({ code: "service.too-large" })],
      [{ status: 200, body: "<html>" }, (e) => expect(e).toMatchObject({ code: "service.not-json" })],
      [json({ error: "N", mantenimiento: 1 }), (e) => expect(e).toMatchObject({ code: "service.maintenance" })],
    ];
    for (const [step, check] of cases) {
      const { client, attempts, sleeps } = scripted([step]);
      check(await failure(client.read("m")));
      expect(attempts).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it("retries: 0 makes one attempt", async () => {
    const { client, attempts } = scripted([json({}, 503)], { retries: 0 });
    await failure(client.read("m"));
    expect(attempts).toHaveLength(1);
  });

  it("four retries unless told", async () => {
    const { client, attempts } = scripted([json({}, 503)], { retries: undefined });
    await failure(client.read("m"));
    expect(attempts).toHaveLength(5);
  });
});

describe("a write: retried only on a 429; after a 5xx or a lost connection its answer is lost", () => {
  const write = (client: ApiClient) => client.request("facturacion/nuevo", { comprobante: {} }, { write: true });

  it("a 5xx is never retried: a lost answer (TransportError, maybe delivered), asked about by reference", async () => {
    for (const status of [500, 502, 503, 504]) {
      const { client, attempts, sleeps } = scripted([json({}, status), OK]);
      const error = await failure(write(client));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ kind: "dropped", maybeDelivered: true });
      expect(error.message).toBe(`the service failed (HTTP ${status})`);
      expect(attempts).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it("a lost connection or a timeout is never retried: the TransportError as it came", async () => {
    for (const lost of [lostConnection(), new TransportError("no complete answer within 95 s", "timeout", true)]) {
      const { client, attempts } = scripted([lost, OK]);
      const error = await failure(write(client));
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ kind: lost.kind, maybeDelivered: true, message: lost.message });
      expect(attempts).toHaveLength(1);
    }
  });

  it("a request that never reached the service is not retried either, and says it was not delivered", async () => {
    const { client, attempts } = scripted([neverReached(), OK]);
    const error = await failure(write(client));
    expect(error).toMatchObject({ kind: "refused", maybeDelivered: false });
    expect(attempts).toHaveLength(1);
  });

  it("a 429 is retried after its Retry-After, and the answer is the second attempt's", async () => {
    const { client, attempts, sleeps, log } = scripted([
      { status: 429, body: "", headers: { "retry-after": "1" } },
      json({ error: "N", cae: "1" }),
    ]);
    expect(await write(client)).toMatchObject({ cae: "1" });
    expect(attempts).toEqual(["facturacion/nuevo", "facturacion/nuevo"]);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(900);
    expect(sleeps[0]).toBeLessThanOrEqual(1000);
    expect(log).toContain("retrying facturacion/nuevo in 1000 ms (too many requests (HTTP 429))");
  });

  it("a 429 without Retry-After waits the backoff; one every time ends rate-limited, nothing done", async () => {
    const { client, attempts, sleeps } = scripted([{ status: 429, body: "" }], { retries: 2 });
    const error = await failure(write(client));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ code: "service.rate-limited" });
    expect(attempts).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it("a status that says nothing was done is the service's refusal, not retried, not lost", async () => {
    for (const status of [400, 404, 405, 411, 413, 414, 415, 422, 431]) {
      const { client, attempts } = scripted([json({ errores: ["no"] }, status)]);
      const error = await failure(write(client));
      expect(error).not.toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: `http.${status}`, outcome: "rejected" });
      expect(attempts).toHaveLength(1);
    }
    const denied = scripted([json({}, 401)]);
    expect(await failure(write(denied.client))).toBeInstanceOf(AccessDeniedError);
    expect(denied.attempts).toHaveLength(1);
  });

  it("any other status (a proxy's 408 or 499, a 409) is a lost answer", async () => {
    for (const status of [408, 409, 499, 201]) {
      const { client, attempts } = scripted([json({}, status), OK]);
      const error = await failure(write(client));
      expect(error).toMatchObject({ kind: "dropped", maybeDelivered: true });
      expect(error.message).toMatch(new RegExp(`HTTP ${status} to facturacion/nuevo`));
      expect(attempts).toHaveLength(1);
    }
  });

  it("an answer that cannot be read or is too large is lost; maintenance and a redirect are not", async () => {
    const unreadable = scripted([{ status: 200, body: "<html>" }]);
    expect(await failure(write(unreadable.client))).toMatchObject({ kind: "dropped", maybeDelivered: true });
    const large = scripted([new TransportError("the answer is larger than 20 MB; refused", "too-large", true)]);
    expect(await failure(write(large.client))).toMatchObject({ kind: "dropped", maybeDelivered: true });
    const maintenance = scripted([json({ error: "N", mantenimiento: 1 })]);
    expect(await failure(write(maintenance.client))).toMatchObject({ code: "service.maintenance" });
    const redirect = scripted([new TransportError("redirect", "redirect", true)]);
    expect(await failure(write(redirect.client))).toMatchObject({ code: "service.redirect" });
  });

  it("every write of the protocol takes the write's path: an unreadable answer to pagar, reenviar, a queue action is lost", async () => {
    const calls: [string, (s: HttpService) => Promise<unknown>][] = [
      ["pagar", (s) => s.pay("FACTURA B", 3, 74, [{ descripcion: "Efectivo", importe: "1" }], "1")],
      ["reenviar", (s) => s.resend("FACTURA B", 3, 74)],
      ["comprobante_eliminar", (s) => s.deletePurchase("FACTURA A", 2, 9)],
      ["reenviar_encolado", (s) => s.requeue("R-1")],
      ["eliminar_encolado", (s) => s.deleteQueued("R-1")],
      ["cambiar_fecha_encolado", (s) => s.reschedule("R-1", "25/11/2026", "05/12/2026")],
    ];
    for (const [name, call] of calls) {
      const { client, attempts } = scripted([{ status: 200, body: "<html>proxy</html>" }]);
      const error = await failure(call(new HttpService(client)));
      expect(error, name).toBeInstanceOf(TransportError);
      expect(error, name).toMatchObject({ maybeDelivered: true });
      expect(attempts, name).toEqual([`facturacion/${name}`]);
      // and a 5xx the same, once
      const failing = scripted([json({}, 503), OK]);
      expect(await failure(call(new HttpService(failing.client))), name).toMatchObject({ maybeDelivered: true });
      expect(failing.attempts, name).toHaveLength(1);
    }
  });
});

describe("the request path keeps the credentials out of its log and errors", () => {
  it("a transport failure's text that echoes a token is cut before it is logged or thrown", async () => {
    const echo = new TransportError(`redirect to https://x.test/?t=${CREDENTIALS.usertoken}`, "dropped", true);
    const { client, log } = scripted([echo], { retries: 1 });
    const error = await failure(client.read("m"));
    expect(error.message).not.toContain(CREDENTIALS.usertoken);
    expect(error.message).toContain("***");
    expect(log.join("\n")).not.toContain(CREDENTIALS.usertoken);
    expect(log.some((l) => l.startsWith("retrying m in ") && l.includes("***"))).toBe(true);
  });

  it("the request's line shows the credentials' fields as *** and their values nowhere", async () => {
    const { client, log } = scripted([OK]);
    await client.request("m", { note: `copy ${CREDENTIALS.apitoken}` }, { write: true });
    const line = log[0] as string;
    expect(line).toMatch(/^POST http:\/\/service\.invalid\/app\/api\/v2\/m \{/);
    expect(line).toContain('"usertoken":"***"');
    expect(line).not.toContain(CREDENTIALS.apitoken);
    expect(line).not.toContain(CREDENTIALS.usertoken);
  });
});

/** A loopback server that plays its script: answer, or drop the connection without one. */
let server: Server;
let base: string;
let script: ("drop" | { status: number; body: string; headers?: Record<string, string> })[] = [];
let served = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const step = script[Math.min(served++, script.length - 1)];
    req.resume();
    req.on("end", () => {
      if (!step || step === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
      res.end(step.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  script = [];
  served = 0;
});

const loopbackClient = () =>
  new ApiClient({
    baseUrl: `${base}/app/api/v2`,
    credentials: CREDENTIALS,
    userAgent: "test",
    retries: 2,
    backoffMs: 1,
    sleep: async () => {},
  });

describe("over HTTP on loopback", () => {
  const okBody = JSON.stringify({ error: "N", errores: [] });

  it("a read whose connection drops is retried; a write's is a lost answer, sent once", async () => {
    script = ["drop", { status: 200, body: okBody }];
    expect(await loopbackClient().read("facturacion/consulta")).toMatchObject({ error: "N" });
    expect(served).toBe(2);
    script = ["drop", { status: 200, body: okBody }];
    served = 0;
    const error = await failure(loopbackClient().request("facturacion/nuevo", {}, { write: true }));
    expect(error).toMatchObject({ kind: "dropped", maybeDelivered: true });
    expect(served).toBe(1);
  });

  it("a download is retried as a read: a dropped connection, a 503 and a 429, then the document", async () => {
    script = [
      "drop",
      { status: 503, body: "busy" },
      { status: 429, body: "slow", headers: { "retry-after": "0" } },
      { status: 200, body: "%PDF-1.7\n" },
    ];
    const client = new ApiClient({
      baseUrl: `${base}/app/api/v2`,
      credentials: CREDENTIALS,
      userAgent: "test",
      retries: 3,
      backoffMs: 1,
      sleep: async () => {},
    });
    const response = await client.download(new URL(`${base}/documentos/1.pdf`));
    expect(response.body.toString()).toBe("%PDF-1.7\n");
    expect(served).toBe(4);
  });

  it("a download that keeps failing: the last answer as it is, or the last network failure", async () => {
    script = [{ status: 503, body: "busy" }];
    const response = await loopbackClient().download(new URL(`${base}/documentos/1.pdf`));
    expect(response.status).toBe(503);
    expect(served).toBe(3);
    script = ["drop"];
    served = 0;
    const error = await failure(loopbackClient().download(new URL(`${base}/documentos/1.pdf`)));
    expect(error).toBeInstanceOf(TransportError);
    expect(served).toBe(3);
  });

  it("a download's 404 is an answer, returned at once", async () => {
    script = [{ status: 404, body: "gone" }];
    expect((await loopbackClient().download(new URL(`${base}/documentos/1.pdf`))).status).toBe(404);
    expect(served).toBe(1);
  });
});

describe("the exactly-once core over the client (the Service interface, in-process)", () => {
  let w: World;
  afterEach(async () => {
    await w?.close();
  });

  const status = (code: number): HttpResponse => ({ status: code, headers: {}, body: Buffer.from("{}") });

  it("a 5xx on the issuing call after the service stored the voucher: sent once, found by reference, issued", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo") return call();
      await call();
      return status(502);
    };
    const out = await run(w, [voucher("P5-1")]);
    expect(out.results[0]).toMatchObject({ status: "issued", reconciled: true });
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
    expect(w.held("P5-1")).toBe(1);
    expect(out.warnings.join("\n")).toMatch(
      /the service failed \(HTTP 502\); asking the service whether P5-1 was stored/,
    );
  });

  it("a 5xx on the issuing call when nothing was stored: asked about past the settle window, then sent again", async () => {
    w = await world();
    let failed = false;
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo" || failed) return call();
      failed = true;
      return status(503);
    };
    const out = await run(w, [voucher("P5-2")]);
    expect(out.results[0]?.status).toBe("issued");
    expect(w.calls.get("facturacion/nuevo")).toBe(2);
    expect(w.held("P5-2")).toBe(1);
  });

  it("a 429 on the issuing call is retried by the client: issued, nothing asked about", async () => {
    w = await world();
    let limited = false;
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo" || limited) return call();
      limited = true;
      return { status: 429, headers: { "retry-after": "0" }, body: Buffer.from("") };
    };
    const before = w.calls.get("facturacion/consulta_avanzada") ?? 0;
    const out = await run(w, [voucher("P429-1")]);
    expect(out.results[0]).toMatchObject({ status: "issued" });
    expect(out.results[0]?.reconciled).toBeFalsy();
    expect(w.calls.get("facturacion/nuevo")).toBe(2);
    // The one lookup before sending, none after.
    expect((w.calls.get("facturacion/consulta_avanzada") ?? 0) - before).toBe(1);
    expect(w.held("P429-1")).toBe(1);
  });

  it("a lookup that meets a 5xx is retried by the client; the voucher is sent once", async () => {
    w = await world();
    let failures = 2;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/consulta_avanzada" && failures > 0) {
        failures--;
        return status(500);
      }
      return call();
    };
    const out = await run(w, [voucher("P5-3")]);
    expect(out.results[0]?.status).toBe("issued");
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(3);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
  });

  it("a lookup that keeps failing stops the run before anything is sent (the service cannot say)", async () => {
    w = await world();
    w.step = async (method, _body, call) => (method === "facturacion/consulta_avanzada" ? status(503) : call());
    const out = await run(w, [voucher("P5-4")]);
    expect(out.stoppedBy?.message).toBe("the service failed (HTTP 503)");
    // Retried as a read: three attempts (retries: 2), then the run stops.
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(3);
    expect(w.calls.get("facturacion/nuevo")).toBeUndefined();
  });
});

describe("what the request path tells, and how", () => {
  /** A transport that records what it was handed, then plays `steps`. */
  function recording(steps: Step[], options: Partial<ClientOptions> = {}) {
    const handed: { url: string; opts: HttpOptions }[] = [];
    const s = scripted(steps, options);
    const play = s.client.options.transport as NonNullable<ClientOptions["transport"]>;
    s.client.options.transport = (url, opts) => {
      handed.push({ url: url.href, opts });
      return play(url, opts);
    };
    return { ...s, handed };
  }

  it("POSTs JSON with the credentials in the body, to the method under the base URL (trailing slashes or not)", async () => {
    for (const baseUrl of ["http://service.invalid/app/api/v2", "http://service.invalid/app/api/v2///"]) {
      const { client, handed } = recording([OK], { baseUrl });
      expect(client.baseUrl.href).toBe("http://service.invalid/app/api/v2/");
      await client.read("facturacion/consulta", { a: 1 });
      expect(handed[0]?.url).toBe("http://service.invalid/app/api/v2/facturacion/consulta");
      expect(handed[0]?.opts).toMatchObject({
        method: "POST",
        headers: { "user-agent": "test", accept: "application/json" },
        timeoutMs: 30_000,
      });
      expect(JSON.parse(handed[0]?.opts.body ?? "")).toEqual({ a: 1, ...CREDENTIALS });
    }
    const writes = recording([OK], { issueTimeoutMs: 1234 });
    await writes.client.request("facturacion/nuevo", {}, { write: true });
    expect(writes.handed[0]?.opts.timeoutMs).toBe(1234);
    const reads = recording([OK], { readTimeoutMs: 321 });
    await reads.client.read("m");
    expect(reads.handed[0]?.opts.timeoutMs).toBe(321);
    const issuing = recording([OK]);
    await issuing.client.request("m", {}, { write: true });
    expect(issuing.handed[0]?.opts.timeoutMs).toBe(95_000);
  });

  it("logs each request, each answer with its status and time, and each network failure", async () => {
    const { client, log } = scripted([lostConnection(), json({ error: "N", errores: [] })]);
    await client.read("m");
    expect(log[0]).toMatch(/^POST http:\/\/service\.invalid\/app\/api\/v2\/m \{/);
    expect(log[1]).toBe("  dropped: the connection broke while the answer arrived");
    expect(log[2]).toMatch(/^retrying m in \d+ ms \(the connection broke while the answer arrived\)$/);
    expect(log[4]).toMatch(/^ {2}200 in \d{1,4} ms: \{"error":"N","errores":\[\]\}$/);
  });

  it("a bug in the transport (no TransportError) is thrown as it is, never retried", async () => {
    const bug = new TypeError("a bug");
    const attempts: number[] = [];
    const client = new ApiClient({
      baseUrl: "http://service.invalid/app/api/v2",
      credentials: CREDENTIALS,
      userAgent: "test",
      retries: 3,
      transport: async () => {
        attempts.push(1);
        throw bug;
      },
    });
    expect(await failure(client.read("m"))).toBe(bug);
    expect(await failure(client.request("m", {}, { write: true }))).toBe(bug);
    expect(attempts).toHaveLength(2);
  });

  it("a throwing log (a bug too) is thrown as it is, by a request and by a download", async () => {
    const bug = new Error("log broke");
    const { client } = scripted([OK], {
      log: () => {
        throw bug;
      },
    });
    expect(await failure(client.read("m"))).toBe(bug);
    expect(await failure(client.download(new URL("http://service.invalid/doc.pdf")))).toBe(bug);
  });

  it("the service's errors, each with its words, outcome and hint", async () => {
    const tell = async (step: Step) => failure(scripted([step], { retries: 0 }).client.read("facturacion/x"));
    expect(await tell(json({ errores: ["token", "inválido"] }, 401))).toMatchObject({
      message: "access denied (HTTP 401): token; inválido",
      outcome: "denied",
      code: "service.denied",
      hint: "check the profile's usertoken, apikey and apitoken (and its point of sale)",
    });
    expect(await tell(json({}, 403))).toMatchObject({ message: "access denied (HTTP 403)" });
    expect(await tell(json({ errores: [""] }, 403))).toMatchObject({ message: "access denied (HTTP 403)" });
    expect(await tell({ status: 429, body: "" })).toMatchObject({
      message: "too many requests (HTTP 429)",
      hint: "lower the request rate",
    });
    expect(await tell(json({}, 503))).toMatchObject({
      message: "the service failed (HTTP 503)",
      outcome: "unavailable",
      code: "service.unavailable",
      hint: "try again later; `facturar status` shows the service's state",
    });
    const refused = await tell(json({ errores: ["mal", "peor"] }, 400));
    expect(refused).toMatchObject({
      message: "the service answered HTTP 400 to facturacion/x: mal; peor",
      outcome: "rejected",
      code: "http.400",
    });
    expect((refused as FacturarError).hint).toBeUndefined();
    expect(await tell(json({}, 404))).toMatchObject({
      message: "the service answered HTTP 404 to facturacion/x",
      hint: "is base_url the API's /app/api/v2 address?",
    });
    expect(await tell(lostConnection())).toMatchObject({
      message: "the connection broke while the answer arrived (after retries)",
      hint: "check the network, or the service status with `facturar status`",
    });
  });

  it("an answer that is no JSON object, or cannot be read surely, is service.not-json, named", async () => {
    const tell = async (body: string, list = false) =>
      failure(scripted([{ status: 200, body }]).client.read("facturacion/x", {}, { list }));
    const notObject = "the service answered facturacion/x with something that is not a JSON object";
    for (const body of ["<html>", "null", "5", '"text"', "[1]", "true"])
      expect(await tell(body), body).toMatchObject({
        message: notObject,
        code: "service.not-json",
        outcome: "unavailable",
        hint: "the base URL may point at a web page, or a proxy is in the way",
      });
    expect(await tell('{"error":"N","error":"S"}')).toMatchObject({
      message: 'the service\'s answer to facturacion/x cannot be read: the key "error" is given twice in one object',
      code: "service.not-json",
    });
    // Given twice once its control characters are out (cleanAnswer).
    expect(await tell('{"error":"N","error\\u0007":"S"}')).toMatchObject({
      message: 'the service\'s answer to facturacion/x cannot be read: the key "error" is given twice in one object',
    });
    // A list is an answer only where the method's shape allows one.
    const plain = scripted([{ status: 200, body: "[1]" }]);
    expect(await failure(plain.client.read("facturacion/x"))).toMatchObject({ message: notObject });
    const { client } = scripted([{ status: 200, body: '[{"a":1}]' }]);
    expect(await client.read("tablas_referencia/x", {}, { list: true })).toEqual([{ a: 1 }]);
  });

  it("maintenance: told with its end and the service's words; mantenimiento 0 is none", async () => {
    const tell = async (answer: unknown) => failure(scripted([json(answer)]).client.read("m"));
    expect(
      await tell({ error: "N", mantenimiento: 1, mantenimiento_hasta: "23/11/2026 23:00\u001b[2J" }),
    ).toMatchObject({
      message: "the service is under maintenance until 23/11/2026 23:00",
      code: "service.maintenance",
      hint: "try again after that time",
    });
    expect(await tell({ error: "S", mantenimiento: "1", errores: ["vuelva luego"] })).toMatchObject({
      message: "the service is under maintenance: vuelva luego",
    });
    for (const none of [0, "0"]) {
      const { client } = scripted([json({ error: "N", mantenimiento: none })]);
      expect(await client.read("m")).toEqual({ error: "N", mantenimiento: none });
    }
  });

  it("an empty Retry-After is no time: the backoff is waited", async () => {
    const { client, sleeps } = scripted([{ status: 429, body: "", headers: { "retry-after": "" } }, OK]);
    await client.read("m");
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
  });

  it("the backoff is jittered over its whole width, not only its first half", async () => {
    const { client, sleeps } = scripted([json({}, 503)], { retries: 12, backoffMs: 100 });
    await failure(client.read("m"));
    // Each wait is between half and one and a half backoffs; some are well past the half.
    expect(sleeps.some((ms, i) => ms > 100 * 2 ** i * 0.5 + 1)).toBe(true);
    for (const [i, ms] of sleeps.entries()) expect(ms).toBeLessThan(100 * 2 ** i * 1.5);
  });

  it("without a sleep of its own, the client really waits its backoff", async () => {
    const client = new ApiClient({
      baseUrl: "http://service.invalid/app/api/v2",
      credentials: CREDENTIALS,
      userAgent: "test",
      retries: 1,
      backoffMs: 60,
      transport: async () => ({ status: 503, headers: {}, body: Buffer.from("") }),
    });
    const started = performance.now();
    await failure(client.read("m"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });
});

describe("spacing: the margin, and what each 429 adds to it", () => {
  /** Two requests of a client spaced by 100 ms; the second one's wait for its turn. */
  /** The waits, and the margin the client keeps after (read from the client: a wait is 110 ms less the real time the attempt took, which a loaded machine stretches). */
  async function secondWait(options: Partial<ClientOptions>, first: Step[]): Promise<[number[], number]> {
    const { client, sleeps } = scripted([...first, OK], { minIntervalMs: 100, retries: 1, ...options });
    await client.read("a");
    return [sleeps, (client as unknown as { margin: number }).margin];
  }

  it("5 ms above the interval unless told", async () => {
    const { client, sleeps } = scripted([OK], { minIntervalMs: 100 });
    await Promise.all([client.read("a"), client.read("b")]);
    expect(sleeps).toHaveLength(1);
    // 105 less the real time between the two starts, which a loaded machine stretches: the margin itself is read.
    expect((client as unknown as { margin: number }).margin).toBe(5);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect(sleeps[0]).toBeLessThanOrEqual(105);
  });

  it("a 429 adds 10 ms to the margin", async () => {
    // The backoff's wait, then the turn of the second attempt: at most 100 + 0 + 10.
    const [[, turn], margin] = await secondWait({ spacingMarginMs: 0 }, [{ status: 429, body: "" }]);
    expect(margin).toBe(10);
    // It waited its turn, never more than the interval and the new margin.
    expect(turn).toBeGreaterThan(0);
    expect(turn).toBeLessThanOrEqual(110);
  });

  it("up to a quarter of the interval", async () => {
    const [[, turn], margin] = await secondWait({ spacingMarginMs: 20 }, [{ status: 429, body: "" }]);
    expect(margin).toBe(25);
    expect(turn).toBeLessThanOrEqual(125);
  });
});

describe("the limiter counts from when a request left, not from its answer", () => {
  it("an answer that comes late does not push the next turns back", async () => {
    const handed: Record<string, number> = {};
    const client = new ApiClient({
      baseUrl: "http://service.invalid/app/api/v2",
      credentials: CREDENTIALS,
      userAgent: "test",
      minIntervalMs: 200,
      spacingMarginMs: 0,
      retries: 0,
      transport: async (url, opts) => {
        const which = url.pathname.split("/").pop() as string;
        handed[which] = performance.now();
        opts.onSent?.();
        // The first one's answer comes after the second one has left, before the third one's turn.
        if (which === "a") await new Promise((r) => setTimeout(r, 300));
        return { status: 200, headers: {}, body: Buffer.from("{}") };
      },
    });
    await Promise.all([client.read("a"), client.read("b"), client.read("c")]);
    const { a, b, c } = handed as { a: number; b: number; c: number };
    expect(b - a).toBeGreaterThanOrEqual(199);
    // 200 ms after b left (400 ms after a); counted from a's answer (300 ms after a) it would be 500.
    expect(c - b).toBeGreaterThanOrEqual(199);
    expect(c - a).toBeLessThan(470);
  });
});

describe("a service that moved (relocate)", () => {
  function movable(relocate: () => Promise<string | undefined>, failure: TransportError, logging = true) {
    const handed: string[] = [];
    const log: string[] = [];
    const client = new ApiClient({
      baseUrl: "http://old.invalid/app/api/v2",
      credentials: CREDENTIALS,
      userAgent: "test",
      retries: 0,
      ...(logging ? { log: (line: Text) => void log.push(english(line)) } : {}),
      relocate,
      transport: async (url) => {
        handed.push(url.href);
        if (url.host === "old.invalid") throw failure;
        return { status: 200, headers: {}, body: Buffer.from('{"error":"N"}') };
      },
    });
    return { client, handed, log };
  }

  it("a request refused where the service was goes where it is now, with every caller refused at once", async () => {
    let moves = 0;
    const { client, handed, log } = movable(async () => {
      moves++;
      await new Promise((r) => setTimeout(r, 5));
      return "http://new.invalid/app/api/v2//";
    }, neverReached());
    const answers = await Promise.all([client.read("a"), client.read("b")]);
    expect(answers).toEqual([{ error: "N" }, { error: "N" }]);
    expect(moves).toBe(1);
    expect(client.baseUrl.href).toBe("http://new.invalid/app/api/v2/");
    expect(handed).toEqual([
      "http://old.invalid/app/api/v2/a",
      "http://old.invalid/app/api/v2/b",
      "http://new.invalid/app/api/v2/a",
      "http://new.invalid/app/api/v2/b",
    ]);
    expect(log).toContain("  the service moved to http://new.invalid");
    // Moved once: the next request goes there directly.
    await client.read("c");
    expect(handed.at(-1)).toBe("http://new.invalid/app/api/v2/c");
    expect(moves).toBe(1);
    // Without a log, the same.
    const quiet = movable(async () => "http://new.invalid/app/api/v2", neverReached(), false);
    expect(await quiet.client.read("a")).toEqual({ error: "N" });
  });

  it("a request refused at the old address after another moved the service goes to the new one, no second move", async () => {
    let moves = 0;
    const handed: string[] = [];
    const client = new ApiClient({
      baseUrl: "http://old.invalid/app/api/v2",
      credentials: CREDENTIALS,
      userAgent: "test",
      retries: 0,
      relocate: async () => {
        moves++;
        return "http://new.invalid/app/api/v2";
      },
      transport: async (url) => {
        handed.push(url.href);
        if (url.host === "old.invalid") {
          // b is refused late, once a has moved the service.
          if (url.pathname.endsWith("/b")) await new Promise((r) => setTimeout(r, 30));
          throw neverReached();
        }
        return { status: 200, headers: {}, body: Buffer.from('{"error":"N"}') };
      },
    });
    expect(await Promise.all([client.read("a"), client.read("b")])).toEqual([{ error: "N" }, { error: "N" }]);
    expect(moves).toBe(1);
    expect(handed.at(-1)).toBe("http://new.invalid/app/api/v2/b");
  });

  it("it stays where it was when it cannot move (nowhere to go, or the move fails), and asks again next time", async () => {
    for (const relocate of [async () => undefined, async () => Promise.reject(new Error("no"))]) {
      let moves = 0;
      const { client, handed } = movable(() => {
        moves++;
        return relocate();
      }, neverReached());
      expect(await failure(client.read("a"))).toBeInstanceOf(UnavailableError);
      expect(await failure(client.read("b"))).toBeInstanceOf(UnavailableError);
      expect(moves).toBe(2);
      expect(handed).toEqual(["http://old.invalid/app/api/v2/a", "http://old.invalid/app/api/v2/b"]);
    }
  });

  it("only a request that never left is moved: a connection lost, or refused after sending, is not", async () => {
    for (const lost of [
      new TransportError("reset", "dropped", false),
      new TransportError("refused late", "refused", true),
      lostConnection(),
    ]) {
      let moves = 0;
      const { client, handed } = movable(async () => {
        moves++;
        return "http://new.invalid/app/api/v2";
      }, lost);
      await failure(client.read("a"));
      expect(moves, lost.message).toBe(0);
      expect(handed).toHaveLength(1);
    }
  });
});

describe("downloads over loopback: what is sent, logged and retried", () => {
  it("a GET with the user agent and no credentials, logged, and its retries logged", async () => {
    const seen: { method?: string; agent?: string; url?: string }[] = [];
    const observer = createServer((req, res) => {
      seen.push({ method: req.method, agent: req.headers["user-agent"], url: req.url });
      res.writeHead(seen.length === 1 ? 500 : 200);
      res.end(seen.length === 1 ? "busy" : "%PDF-1.7\n");
    });
    await new Promise<void>((resolve) => observer.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(observer.address() as AddressInfo).port}`;
    try {
      const log: string[] = [];
      const client = new ApiClient({
        baseUrl: `${at}/app/api/v2`,
        credentials: CREDENTIALS,
        userAgent: "facturar-test",
        retries: 2,
        backoffMs: 1,
        sleep: async () => {},
        log: (line) => log.push(english(line)),
      });
      const response = await client.download(new URL(`${at}/documentos/1.pdf?x=1`));
      expect(response.status).toBe(200);
      expect(seen).toEqual([
        { method: "GET", agent: "facturar-test", url: "/documentos/1.pdf?x=1" },
        { method: "GET", agent: "facturar-test", url: "/documentos/1.pdf?x=1" },
      ]);
      expect(log[0]).toBe(`GET ${at}/documentos/1.pdf`);
      expect(log[1]).toMatch(
        new RegExp(`^retrying GET ${at.replace(/\./g, "\\.")}/documentos/1\\.pdf in \\d+ ms \\(HTTP 500\\)$`),
      );
    } finally {
      observer.closeAllConnections();
      await new Promise((resolve) => observer.close(resolve));
    }
  });
});

describe("errorTexts and parseVoucherNumber", () => {
  it("errorTexts: a list of non-empty printable texts, whatever was sent", () => {
    expect(errorTexts(undefined)).toEqual([]);
    expect(errorTexts(null)).toEqual([]);
    expect(errorTexts([""])).toEqual([]);
    expect(errorTexts(" uno ")).toEqual(["uno"]);
    expect(errorTexts([5, { a: 1 }, null, " dos\u001b[2J "])).toEqual(["5", '{"a":1}', "null", "dos"]);
    expect(errorTexts(7)).toEqual(["7"]);
  });

  it("parseVoucherNumber: PPPPP-NNNNNNNN or a bare number, whole and trimmed, nothing else", () => {
    expect(parseVoucherNumber(" 00003-00000074 ")).toEqual({ punto_venta: 3, numero: 74 });
    expect(parseVoucherNumber("0002-00000006")).toEqual({ punto_venta: 2, numero: 6 });
    expect(parseVoucherNumber(" 0000123 ")).toEqual({ numero: 123 });
    expect(parseVoucherNumber(123)).toEqual({ numero: 123 });
    for (const bad of [
      "x00003-00000074",
      "00003-00000074x",
      "000003-00000074",
      "123456789",
      "a123",
      "123a",
      "",
      null,
      undefined,
    ])
      expect(parseVoucherNumber(bad), String(bad)).toBeUndefined();
  });
});
