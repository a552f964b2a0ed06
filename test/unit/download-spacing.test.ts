/**
 * Document downloads beside the limiter (ApiClient.download, issue #27): they are not spaced like
 * API calls, but they start just after a request left, in the first half of the interval, never
 * in the moments before the next request may leave; when none has left for two intervals, at once.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { HttpOptions, HttpResponse } from "../../src/api/http.js";

const closing: (() => void)[] = [];
afterEach(() => {
  for (const close of closing.splice(0)) close();
});

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("downloads in the API's waits", () => {
  it("a download asked for late in the interval waits for the next request to leave, or for two intervals with none sent", async () => {
    const events: string[] = [];
    // The documents: a server on loopback that notes each download as it arrives.
    const server = createServer((req, res) => {
      events.push(`download ${req.url?.split("/").pop()}`);
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end("%PDF-1.4 x");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closing.push(() => server.close());
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The API: each request notes when it left; answered at once.
    const client = new ApiClient({
      baseUrl: `${origin}/app/api/v2`,
      credentials: { usertoken: "u".repeat(32), apikey: "1234", apitoken: "t".repeat(32) },
      userAgent: "test",
      minIntervalMs: 400,
      spacingMarginMs: 0,
      retries: 0,
      transport: async (url: URL, opts: HttpOptions): Promise<HttpResponse> => {
        events.push(`${url.pathname.split("/").pop()} left`);
        opts.onSent?.();
        return { status: 200, headers: {}, body: Buffer.from('{"error":"N","errores":[]}') };
      },
    });
    const download = (name: string) => client.download(new URL(`${origin}/app/api/v2/comprobantes/pdf/${name}`));
    await client.read("first");
    // The second request waits its turn (400 ms after the first left) while documents are asked for.
    const second = client.read("second");
    await download("early.pdf");
    // Past the first half of the interval: the next download waits until the second request has left.
    await later(250);
    await Promise.all([second, download("late.pdf")]);
    // Late in the interval again, with no request waiting: once nothing has left for two
    // intervals the lanes are not sending, and the download goes.
    await later(250);
    const asked = performance.now();
    await download("idle.pdf");
    expect(performance.now() - asked).toBeGreaterThanOrEqual(100);
    expect(events).toEqual([
      "first left",
      "download early.pdf",
      "second left",
      "download late.pdf",
      "download idle.pdf",
    ]);
  });
});
