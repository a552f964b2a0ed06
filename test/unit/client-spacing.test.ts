/**
 * The client's limiter (ApiClient, `minIntervalMs`): each request waits until the previous one
 * has left, and then the interval, so that what delays a request on its way out (a new
 * connection's handshake, a busy event loop) cannot bring two requests closer on arrival.
 */
import { describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { type HttpOptions, type HttpResponse, TransportError } from "../../src/api/http.js";

const ok = (): HttpResponse => ({
  status: 200,
  headers: {},
  body: Buffer.from(JSON.stringify({ error: "N", errores: [] })),
});

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client spaced by `intervalMs` (no margin) whose transport is `transport`. */
function spacedClient(intervalMs: number, transport: (url: URL, opts: HttpOptions) => Promise<HttpResponse>) {
  return new ApiClient({
    baseUrl: "http://service.invalid/app/api/v2",
    credentials: { usertoken: "u".repeat(32), apikey: "1234", apitoken: "t".repeat(32) },
    userAgent: "test",
    minIntervalMs: intervalMs,
    spacingMarginMs: 0,
    retries: 0,
    transport,
  });
}

describe("the limiter counts from when a request left", () => {
  it("a request slow to leave holds the next one until the interval after it has left", async () => {
    const events: { what: string; at: number }[] = [];
    const note = (what: string) => events.push({ what, at: performance.now() });
    const client = spacedClient(50, async (url, opts) => {
      const which = url.pathname.split("/").pop() as string;
      note(`${which} handed`);
      // The first one connects for 80 ms before its bytes go (a handshake, say).
      if (which === "first") await later(80);
      note(`${which} left`);
      opts.onSent?.();
      await later(5);
      return ok();
    });
    await Promise.all([client.read("first"), client.read("second")]);
    const at = (what: string) => events.find((e) => e.what === what)?.at as number;
    // Not 50 ms after the first was handed to the transport: 50 ms after it left.
    expect(at("second handed") - at("first left")).toBeGreaterThanOrEqual(49);
    expect(events.map((e) => e.what)).toEqual(["first handed", "first left", "second handed", "second left"]);
  });

  it("a request that fails before leaving lets the next one go", async () => {
    const handed: string[] = [];
    const client = spacedClient(10, async (url) => {
      const which = url.pathname.split("/").pop() as string;
      handed.push(which);
      if (which === "first") throw new TransportError("cannot connect", "refused", false);
      return ok();
    });
    const [first, second] = await Promise.allSettled([client.read("first"), client.read("second")]);
    expect(first.status).toBe("rejected");
    expect(second.status).toBe("fulfilled");
    expect(handed).toEqual(["first", "second"]);
  });

  it("a transport that never says when a request left releases the turn with its answer", async () => {
    const handed: number[] = [];
    const answered: number[] = [];
    const client = spacedClient(10, async () => {
      handed.push(performance.now());
      await later(40);
      answered.push(performance.now());
      return ok();
    });
    await Promise.all([client.read("a"), client.read("b")]);
    expect((handed[1] as number) - (answered[0] as number)).toBeGreaterThanOrEqual(9);
  });
});
