/**
 * A voucher's documents (src/batch/documents.ts) in-process: what a link that gives no PDF is told
 * as (in the service's words where it has any), and the pool every download of a run goes through
 * (Slots, DOWNLOADS_AT_ONCE at a time, in the order they came). Scripted downloads, no service,
 * milliseconds a test (the `documents` mutation scope; issuer.test.ts saves documents too).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HttpResponse } from "../../src/api/http.js";
import type { Service } from "../../src/api/protocol.js";
import {
  DOWNLOADS_AT_ONCE,
  DocumentUnavailableError,
  NoDocument,
  Slots,
  saveDocument,
} from "../../src/batch/documents.js";
import { FacturarError } from "../../src/errors.js";
import { failure, tempDir } from "../helpers.js";

const PDF = Buffer.from("%PDF-1.4 test document");
const LINK = "http://sandbox.invalid/app/api/v2/comprobantes/pdf/1.pdf";

/** A service whose downloads answer `answers` in turn (then 599); every URL asked kept in `asked`. */
function service(answers: HttpResponse[], asked: string[] = []): Service {
  return {
    baseUrl: new URL("http://sandbox.invalid/app/api/v2"),
    download: async (url: URL) => {
      asked.push(url.href);
      return answers.shift() ?? { status: 599, headers: {}, body: Buffer.from("") };
    },
  } as unknown as Service;
}

const answer = (status: number, body: string | Buffer): HttpResponse => ({
  status,
  headers: {},
  body: typeof body === "string" ? Buffer.from(body) : body,
});

/** What saveDocument fails with for a link that answers `response` (its renewal answering the same). */
async function failureFor(response: HttpResponse): Promise<unknown> {
  return failure(
    saveDocument(service([response, response]), tempDir("facturar-docs-"), "a.pdf", LINK, async () => LINK),
  );
}

describe("a link that gives no PDF: the service's failure, in its words where it has any", () => {
  it("is an unavailable document (exit 6), with the hint to run the command again later", async () => {
    const error = await failureFor(answer(500, ""));
    expect(error).toBeInstanceOf(DocumentUnavailableError);
    expect(error).toBeInstanceOf(FacturarError);
    expect(error).toMatchObject({
      message: "the link answered HTTP 500",
      outcome: "unavailable",
      code: "document.unavailable",
      hint: "run the same command again later",
    });
    expect(await failureFor(answer(200, "<html>not a pdf</html>"))).toMatchObject({
      message: "the link did not return a PDF",
      outcome: "unavailable",
      code: "document.unavailable",
    });
  });

  it("says what the service's JSON error says (errores, a list or one text)", async () => {
    const said = await failureFor(
      answer(500, JSON.stringify({ error: "S", errores: ["El comprobante no existe", "otro"] })),
    );
    expect(said).toMatchObject({ message: "the link answered HTTP 500: El comprobante no existe" });
    // An expired link renewed once, and the renewal refused too: told in the service's words.
    const gone = await failureFor(answer(410, JSON.stringify({ error: "S", errores: "El link expiró" })));
    expect(gone).toMatchObject({ message: "the link answered HTTP 410: El link expiró" });
  });

  it("says no more than the status for a body that says nothing: not JSON, null, no errores, an empty list", async () => {
    for (const body of ["<html>Bad gateway</html>", "null", "{}", '{"error":"S","errores":[]}', '"texto"', ""])
      expect(await failureFor(answer(502, body)), body).toMatchObject({ message: "the link answered HTTP 502" });
  });

  it("cuts the service's words at 300 characters, and takes out what a terminal would run", async () => {
    const long = `${"x".repeat(299)}yz`;
    expect(await failureFor(answer(500, JSON.stringify({ errores: [long] })))).toMatchObject({
      message: `the link answered HTTP 500: ${"x".repeat(299)}y`,
    });
    const error = (await failureFor(answer(500, JSON.stringify({ errores: ["\u001b[31mrojo\u001b[0m"] })))) as Error;
    expect(error.message).not.toContain("\u001b");
  });

  it("reads a body of up to 64 KiB for those words, and no longer one", async () => {
    const json = JSON.stringify({ errores: ["demasiado grande"] });
    const padded = (size: number) => Buffer.from(json + " ".repeat(size - json.length));
    expect((await failureFor(answer(500, padded(64 * 1024)))) as Error).toMatchObject({
      message: "the link answered HTTP 500: demasiado grande",
    });
    expect((await failureFor(answer(500, padded(64 * 1024 + 1)))) as Error).toMatchObject({
      message: "the link answered HTTP 500",
    });
  });

  it("no link, and none to be had: no document, which is not a failure (no file written)", async () => {
    const dir = tempDir("facturar-docs-");
    const asked: string[] = [];
    const error = await failure(saveDocument(service([answer(200, PDF)], asked), dir, "a.pdf", null, async () => null));
    expect(error).toBeInstanceOf(NoDocument);
    expect(error).not.toBeInstanceOf(FacturarError);
    expect(asked).toEqual([]);
    expect(existsSync(join(dir, "a.pdf"))).toBe(false);
  });
});

/** Tasks run through one pool, each held until the test lets it end. */
function pool(size: number) {
  const slots = new Slots(size);
  const started: number[] = [];
  const ends = new Map<number, { done: () => void; fail: (e: Error) => void }>();
  const task = (n: number) =>
    slots.run(
      () =>
        new Promise<number>((resolve, reject) => {
          started.push(n);
          ends.set(n, { done: () => resolve(n), fail: reject });
        }),
    );
  const end = (n: number) => ends.get(n)?.done();
  const fail = (n: number, error: Error) => ends.get(n)?.fail(error);
  return { task, started, end, fail };
}

/** Every turn of the event loop that can run now, run (no clock involved: the pool has no timers). */
async function settled(): Promise<void> {
  for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
}

describe("the download pool: a few at a time, in the order they came", () => {
  it("documents download DOWNLOADS_AT_ONCE (4) at a time", () => {
    expect(DOWNLOADS_AT_ONCE).toBe(4);
  });

  it("runs at most its size at once; each one ending lets in the next that came", async () => {
    const p = pool(DOWNLOADS_AT_ONCE);
    const results = Array.from({ length: 7 }, (_, n) => p.task(n));
    await settled();
    expect(p.started).toEqual([0, 1, 2, 3]);
    p.end(2);
    await settled();
    expect(p.started).toEqual([0, 1, 2, 3, 4]);
    p.end(0);
    p.end(4);
    await settled();
    expect(p.started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const n of [1, 3, 5, 6]) p.end(n);
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("a slot freed with nobody waiting is taken by the next to come, still at most its size", async () => {
    const p = pool(2);
    const first = [p.task(0), p.task(1)];
    await settled();
    p.end(0);
    p.end(1);
    expect(await Promise.all(first)).toEqual([0, 1]);
    const later = [p.task(2), p.task(3), p.task(4)];
    await settled();
    expect(p.started).toEqual([0, 1, 2, 3]);
    p.end(3);
    await settled();
    expect(p.started).toEqual([0, 1, 2, 3, 4]);
    p.end(2);
    p.end(4);
    expect(await Promise.all(later)).toEqual([2, 3, 4]);
  });

  it("a task that fails gives its slot back, and its failure to its caller alone", async () => {
    const p = pool(1);
    const failing = p.task(0);
    const next = p.task(1);
    await settled();
    expect(p.started).toEqual([0]);
    p.fail(0, new Error("download failed"));
    await expect(failing).rejects.toThrow("download failed");
    await settled();
    expect(p.started).toEqual([0, 1]);
    p.end(1);
    expect(await next).toBe(1);
  });

  it("a pool of no size runs one at a time", async () => {
    const p = pool(0);
    const both = [p.task(0), p.task(1)];
    await settled();
    expect(p.started).toEqual([0]);
    p.end(0);
    await settled();
    expect(p.started).toEqual([0, 1]);
    p.end(1);
    expect(await Promise.all(both)).toEqual([0, 1]);
  });
});
