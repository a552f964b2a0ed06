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
  type Failure,
  lostAnswer,
  type RequestKind,
  refusedForItsBody,
  retryable,
  UnavailableError,
} from "../../src/api/client.js";
import { type HttpOptions, type HttpResponse, TransportError } from "../../src/api/http.js";
import { HttpService } from "../../src/api/protocol.js";
import { FacturarError } from "../../src/errors.js";
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
    log: (line) => log.push(line),
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

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
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
