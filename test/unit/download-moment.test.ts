/**
 * When a document download starts beside the API's spacing (ApiClient.download's quiet moment),
 * on a fake clock: in the first half of the spacing after a request left (its margin counted),
 * else once the next request has left, or once none has left for two spacings with none waiting.
 * The clock is vitest's (setTimeout and performance.now()); the documents come from a loopback
 * server, and a download's start is when the client logs it, before it connects.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { HttpOptions, HttpResponse } from "../../src/api/http.js";
import { english } from "../../src/i18n/message.js";

const closing: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const close of closing.splice(0)) close();
});

/**
 * A client spaced 400 ms (plus `margin`) whose requests answer `answers[method]` in turn (then
 * `{"error":"N"}`), and a loopback document server; `events` in the order things happened: a
 * request leaving (`first left`), a download starting (`download a.pdf`).
 */
async function rig(margin: number, answers: Record<string, HttpResponse[]> = {}) {
  const events: string[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf" });
    res.end("%PDF-1.4 x");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closing.push(() => server.close());
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  const client = new ApiClient({
    baseUrl: `${origin}/app/api/v2`,
    credentials: { usertoken: "u".repeat(32), apikey: "1234", apitoken: "t".repeat(32) },
    userAgent: "test",
    minIntervalMs: 400,
    spacingMarginMs: margin,
    retries: 1,
    log: (said) => {
      const line = english(said);
      if (line.startsWith("GET ")) events.push(`download ${line.split("/").pop()}`);
    },
    transport: async (url: URL, opts: HttpOptions): Promise<HttpResponse> => {
      const method = url.pathname.split("/").pop() ?? "";
      events.push(`${method} left`);
      opts.onSent?.();
      return answers[method]?.shift() ?? { status: 200, headers: {}, body: Buffer.from('{"error":"N","errores":[]}') };
    },
  });
  const download = (name: string) => client.download(new URL(`${origin}/app/api/v2/comprobantes/pdf/${name}`));
  return { client, events, download };
}

/** The fake clock moved `ms` on, and every promise that can settle meanwhile settled. */
const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("a download's start beside the API's spacing (fake clock)", () => {
  it("goes at once in the first half of the spacing, its margin counted; else after the next request left", async () => {
    // Spacing 600 ms (400 and a margin of 200): its first half ends 300 ms after a request left.
    const { client, events, download } = await rig(200);
    await client.read("first");
    const second = client.read("second");
    await tick(250);
    const early = download("early.pdf");
    await tick(0);
    await tick(100);
    const late = download("late.pdf");
    await tick(250);
    await Promise.all([second, early, late]);
    expect(events).toEqual(["first left", "download early.pdf", "second left", "download late.pdf"]);
  });

  it("with no request waiting, late in the spacing: once none has left for two spacings, and not before", async () => {
    const { client, events, download } = await rig(200);
    await client.read("first");
    // 350 ms after the request left (past the first half of 600): it goes 1200 ms after it left.
    await tick(350);
    const idle = download("idle.pdf");
    await tick(849);
    expect(events).toEqual(["first left"]);
    await tick(1);
    expect(events).toEqual(["first left", "download idle.pdf"]);
    await idle;
  });

  it("a request waiting out a Retry-After: a download asked for just before it leaves goes after it", async () => {
    const tooMany: HttpResponse = { status: 429, headers: { "retry-after": "2" }, body: Buffer.from("") };
    const { client, events, download } = await rig(0, { first: [tooMany] });
    const first = client.read("first");
    // Its retry waits until 2 s after the 429, long past two spacings since the first attempt left.
    await tick(1800);
    const late = download("late.pdf");
    await tick(200);
    await Promise.all([first, late]);
    expect(events).toEqual(["first left", "first left", "download late.pdf"]);
  });
});
