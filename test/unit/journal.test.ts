/**
 * The journal keeps in memory only where each reference's lines are, and reads an entry back
 * when asked: what it says must be what the lines say, merged in order, before and after a reopen.
 */
import { createHash } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { uptime } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { AccountKey } from "../../src/api/connection.js";
import {
  accountId,
  contentDigest,
  derivedReference,
  entryFromService,
  inFlight,
  Journal,
  JournalBusyError,
  JournalUnwritableError,
  monotonicMs,
  settledInJournal,
  sinceSent,
  TEST_JOURNAL_FULL_AT,
  testJournalLimit,
  withPointOfSale,
} from "../../src/batch/journal.js";
import { AppendLog, DurableWriteError } from "../../src/durable/append-log.js";
import { dayNumber } from "../../src/voucher/dates.js";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import { tempDir } from "../sandbox-process.js";

const KEY: AccountKey = { service: "http://127.0.0.1:1/app/api/v2", punto_venta: 679, usertoken: "u" };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const journalPath = (dir: string, key = KEY) => join(dir, `journal-${accountId(key)}.jsonl`);
const fileRecords = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const refsOf = (journal: Journal) => journal.all().map((e) => e.ref);

/** A profile's name, as the journal's first line keeps it. */
const PROFILE = "Tienda_2-B.ar ñ/x";

describe("accountId", () => {
  it("is pinned: an existing user's journal keeps its file name from one version to the next", () => {
    expect(accountId(KEY)).toBe("e0d660f8346041055978");
    expect(accountId({ ...KEY, punto_venta: undefined })).toBe("ad1f71aac7db71d51d46");
  });

  it("differs with the service, the point of sale (none is not 0) and the token, and is 20 hex digits", () => {
    const keys = [
      KEY,
      { ...KEY, service: "sandbox:/tmp/data" },
      { ...KEY, punto_venta: 680 },
      { ...KEY, punto_venta: 0 },
      { ...KEY, punto_venta: undefined },
      { ...KEY, usertoken: "v" },
    ];
    const ids = new Set(keys.map(accountId));
    expect(ids.size).toBe(keys.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{20}$/);
  });

  it("names the journal and its lock; neither the files nor their names hold the token", async () => {
    const dir = join(tempDir("facturar-journal-id-"), "state", "facturar");
    const key = { ...KEY, usertoken: "s3cr3t-usertoken-99" };
    const journal = await Journal.open(dir, key, { lock: true, profile: "p" });
    expect(journal.account).toBe(accountId(key));
    expect(journal.path).toBe(join(dir, `journal-${accountId(key)}.jsonl`));
    expect(existsSync(join(dir, `journal-${accountId(key)}.lock`))).toBe(true);
    await journal.record({ ref: "A", state: "sending", mode: "instant" });
    // A new folder, nested, private; the journal private too.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(journal.path).mode & 0o777).toBe(0o600);
    await journal.close();
    expect(readdirSync(dir).join(" ")).not.toContain("s3cr3t");
    expect(readFileSync(journalPath(dir, key), "utf8")).not.toContain("s3cr3t");
  });
});

describe("what the journal says of a voucher", () => {
  const found = (over: Partial<ServiceVoucher>): ServiceVoucher => ({
    external_reference: "R1",
    state: "issued",
    status: "EMITIDO",
    tipo: "FACTURA B",
    punto_venta: 679,
    numero: 12,
    cae: "76123456789012",
    vencimiento_cae: "30/11/2026",
    vencimiento_pago: "20/12/2026",
    qr: null,
    pdf_url: null,
    ticket_url: null,
    fecha: "20/11/2026",
    total: "121.00",
    errors: [],
    observations: ["observada"],
    operacion: "V",
    raw: { comprobante: {} },
    ...over,
  });

  it("maps an issued voucher the service reports, with its number and authorization", () => {
    expect(entryFromService(found({}), "instant")).toEqual({
      ref: "R1",
      state: "issued",
      mode: "instant",
      tipo: "FACTURA B",
      punto_venta: 679,
      numero: 12,
      comprobante_nro: "00679-00000012",
      cae: "76123456789012",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      fecha: "20/11/2026",
      total: "121.00",
      observations: ["observada"],
    });
  });

  it("a queued one is queued whatever the mode, with only what the service says", () => {
    const queued = found({
      state: "queued",
      tipo: "",
      numero: null,
      cae: null,
      vencimiento_cae: null,
      vencimiento_pago: null,
      fecha: null,
      total: null,
      observations: [],
      errors: ["ignored while queued"],
    });
    expect(entryFromService(queued, "instant")).toEqual({
      ref: "R1",
      state: "queued",
      mode: "queued",
      punto_venta: 679,
    });
  });

  it("a failed queued one keeps the service's errors; a number without a point of sale is no comprobante_nro", () => {
    const failed = found({ state: "queue-error", punto_venta: null, numero: 5, cae: null, errors: ["CUIT inválido"] });
    expect(entryFromService(failed, "instant")).toEqual({
      ref: "R1",
      state: "queue-error",
      mode: "queued",
      tipo: "FACTURA B",
      numero: 5,
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      fecha: "20/11/2026",
      total: "121.00",
      observations: ["observada"],
      errors: ["CUIT inválido"],
    });
    expect(entryFromService(found({ state: "issued", numero: null }), "queued")).not.toHaveProperty("comprobante_nro");
    expect(entryFromService(found({ state: "issued" }), "queued")).toMatchObject({ state: "issued", mode: "queued" });
  });

  it("settled only when issued; in flight when sending or unknown", () => {
    expect(settledInJournal(undefined)).toBe(false);
    expect(settledInJournal({ state: "issued" })).toBe(true);
    for (const state of ["sending", "unknown", "queued", "rejected", "held"] as const)
      expect(settledInJournal({ state })).toBe(false);
    expect(inFlight(undefined)).toBe(false);
    expect(inFlight({ state: "sending" })).toBe(true);
    expect(inFlight({ state: "unknown" })).toBe(true);
    for (const state of ["issued", "queued", "queue-error", "rejected", "held", "deleted"] as const)
      expect(inFlight({ state })).toBe(false);
  });

  it("was sent at least so long ago: on the monotonic clock in its boot, the uptime since an earlier boot, else 0", () => {
    const entry = { ref: "A", state: "unknown", mode: "instant", at: "2026-11-20T10:00:05.000Z" } as const;
    const now = () => 50_000;
    // The wall clock says nothing: a step of it cannot make a send look older.
    expect(sinceSent({ ...entry, sent_at: "2020-01-01T00:00:00.000Z" }, now, "boot-1")).toBe(0);
    expect(sinceSent({ ...entry, sent_mono: 20_000, boot: "boot-1" }, now, "boot-1")).toBe(30_000);
    // A monotonic time ahead of the clock (another clock's): nothing known.
    expect(sinceSent({ ...entry, sent_mono: 90_000, boot: "boot-1" }, now, "boot-1")).toBe(0);
    // Sent before this boot: at least as long ago as the machine has been up.
    const before = uptime() * 1000;
    const since = sinceSent({ ...entry, sent_mono: 20_000, boot: "boot-0" }, now, "boot-1");
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(uptime() * 1000);
    // Boots told apart by the wall clock alone may be one boot whose clock stepped: nothing known.
    expect(sinceSent({ ...entry, sent_mono: 20_000, boot: "t1700000000" }, now, "t1700009999")).toBe(0);
    expect(monotonicMs()).toBeGreaterThan(0);
  });
});

describe("FACTURAR_TEST_JOURNAL_FULL_AT", () => {
  it("is a whole number of bytes, 0 included; anything else is no limit", () => {
    const limit = (value?: string) => testJournalLimit(value === undefined ? {} : { [TEST_JOURNAL_FULL_AT]: value });
    expect(TEST_JOURNAL_FULL_AT).toBe("FACTURAR_TEST_JOURNAL_FULL_AT");
    expect(limit("20000")).toBe(20000);
    expect(limit("0")).toBe(0);
    for (const value of [undefined, "", " ", "abc", "1.5", "-1"]) expect(limit(value)).toBeUndefined();
  });

  it("fails a write that would take the file past the limit, to the byte, with the journal unchanged", async () => {
    const dir = tempDir("facturar-journal-full-");
    const first = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await first.record({ ref: "A", state: "sending", mode: "instant" });
    await first.close();
    const size = statSync(journalPath(dir)).size;
    // One line: {"ref":…,"state":…,"mode":…,"at":<24 characters>} and its newline.
    const line = (ref: string) =>
      Buffer.byteLength(
        `${JSON.stringify({ ref, state: "sending", mode: "instant", at: new Date().toISOString() })}\n`,
      );

    const exact = await Journal.open(dir, KEY, { lock: false, profile: "p", fullAtBytes: size + line("B") });
    await exact.record({ ref: "B", state: "sending", mode: "instant" });
    const full = exact.record({ ref: "C", state: "sending", mode: "instant" });
    await expect(full).rejects.toBeInstanceOf(JournalUnwritableError);
    await expect(full).rejects.toThrow(/ENOSPC: no space left on the device/);
    expect(exact.get("C")).toBeUndefined();
    await exact.close();

    const short = await Journal.open(dir, KEY, { lock: false, profile: "p", fullAtBytes: size + 2 * line("B") - 1 });
    await expect(short.record({ ref: "D", state: "sending", mode: "instant" })).rejects.toBeInstanceOf(
      JournalUnwritableError,
    );
    await short.close();
    const again = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    expect(refsOf(again)).toEqual(["A", "B"]);
    await again.close();
    // Too full to write even the new journal's first line.
    await expect(Journal.open(tempDir(), KEY, { lock: true, profile: "p", fullAtBytes: 10 })).rejects.toThrow(
      JournalUnwritableError,
    );
  });
});

describe("a voucher's content and its derived reference", () => {
  it("digests sorted-key JSON of the envelope, without undefined fields", () => {
    const envelope = {
      comprobante: { b: 1, c: true, a: [2, { d: null, c: "x", e: undefined, b: [] }], nada: undefined },
      z: "ñ",
      cliente: { documento_nro: "20111111112" },
    };
    expect(contentDigest(envelope)).toBe(
      sha256(
        '{"cliente":{"documento_nro":"20111111112"},"comprobante":{"a":[2,{"b":[],"c":"x","d":null}],"b":1,"c":true},"z":"ñ"}',
      ),
    );
    // The order of the items is part of the voucher; the order of the keys is not.
    expect(contentDigest({ comprobante: { a: [{ d: null, c: "x" }, 2], b: 1 }, z: "ñ" })).not.toBe(
      contentDigest({ comprobante: { a: [2, { c: "x", d: null }], b: 1 }, z: "ñ" }),
    );
  });

  it("leaves out the credentials, the reference, the number and the dates filled in from today", () => {
    const base = { comprobante: { fecha: "20/11/2026", total: 10 }, cliente: { nombre: "A" } };
    const digest = contentDigest(base);
    const dressed = {
      ...base,
      $schema: "x",
      usertoken: "u",
      apikey: "k",
      apitoken: "t",
      comprobante: { ...base.comprobante, external_reference: "R9", numero: 44 },
    };
    expect(contentDigest(dressed)).toBe(digest);
    // A date the file gave is the voucher's; one filled in from today is not.
    expect(contentDigest({ ...base, comprobante: { total: 10, fecha: "21/11/2026" } })).not.toBe(digest);
    expect(contentDigest({ ...base, comprobante: { total: 10, fecha: "21/11/2026" }, _defaulted: ["fecha"] })).toBe(
      contentDigest({ ...base, comprobante: { total: 10 } }),
    );
    expect(contentDigest({ ...base, cliente: { nombre: "B" } })).not.toBe(digest);
  });

  it("a derived reference is F- and 24 digits of the content, then the point of sale, the file's first", () => {
    const envelope = { comprobante: { total: 10, tipo: "FACTURA B" } };
    const stem = `F-${contentDigest(envelope).slice(0, 24)}`;
    expect(derivedReference(envelope, undefined)).toBe(stem);
    expect(derivedReference(envelope, 679)).toBe(`${stem}-679`);
    expect(withPointOfSale(stem, 679)).toBe(`${stem}-679`);
    // The point of sale is outside the digest: named in the file or the profile's, one reference.
    expect(derivedReference({ comprobante: { ...envelope.comprobante, punto_venta: 679 } }, undefined)).toBe(
      `${stem}-679`,
    );
    expect(derivedReference({ comprobante: { ...envelope.comprobante, punto_venta: "5" } }, 679)).toBe(`${stem}-5`);
  });
});

describe("Journal.open", () => {
  it("starts a new journal with a line naming its account, never the token", async () => {
    const dir = tempDir("facturar-journal-header-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: PROFILE });
    await journal.close();
    expect(fileRecords(journalPath(dir))).toEqual([
      { t: "account", service: KEY.service, punto_venta: 679, profile: PROFILE },
    ]);
    const none = await Journal.open(dir, { ...KEY, punto_venta: undefined }, { lock: false, profile: "p" });
    await none.close();
    expect(fileRecords(journalPath(dir, { ...KEY, punto_venta: undefined }))).toEqual([
      { t: "account", service: KEY.service, punto_venta: null, profile: "p" },
    ]);
  });

  it("refuses a second locked run on the journal, naming the holder; one without the lock, or a reader, goes on", async () => {
    const dir = tempDir("facturar-journal-busy-");
    const journal = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    const busy = Journal.open(dir, KEY, { lock: true, profile: "shop" });
    await expect(busy).rejects.toBeInstanceOf(JournalBusyError);
    await expect(busy).rejects.toMatchObject({ code: "journal.busy", outcome: "usage" });
    await expect(busy).rejects.toThrow(
      `process ${process.pid}) is issuing on the journal of this account (profile shop)`,
    );
    await expect(busy).rejects.toMatchObject({ hint: expect.stringContaining("its lock is then taken over") });
    const unlocked = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await unlocked.close();
    const reader = await Journal.open(dir, KEY, { lock: false, readOnly: true, profile: "p" });
    await reader.close();
    // Another account's journal has its own lock.
    await (await Journal.open(dir, { ...KEY, punto_venta: 2 }, { lock: true, profile: "p" })).close();
    await journal.close();
    await journal.close();
    await (await Journal.open(dir, KEY, { lock: true, profile: "p" })).close();
  });

  it("an unlocked run takes no lock", async () => {
    const dir = tempDir("facturar-journal-nolock-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    expect(readdirSync(dir)).toEqual([`journal-${accountId(KEY)}.jsonl`]);
    await (await Journal.open(dir, KEY, { lock: true, profile: "p" })).close();
    await journal.close();
  });

  it("a folder that cannot be made is JournalUnwritableError, in the file system's words", async () => {
    const file = join(tempDir("facturar-journal-notdir-"), "state");
    writeFileSync(file, "");
    const opening = Journal.open(join(file, "facturar"), KEY, { lock: true, profile: "p" });
    await expect(opening).rejects.toBeInstanceOf(JournalUnwritableError);
    await expect(opening).rejects.toMatchObject({
      code: "journal.unwritable",
      outcome: "unavailable",
      hint: expect.stringContaining("XDG_STATE_HOME"),
    });
    await expect(opening).rejects.toThrow(`${join(file, "facturar")}`);
    await expect(opening).rejects.toThrow(/ENOTDIR: a file is where a folder should be/);
  });

  it("a journal that cannot be opened is JournalUnwritableError, and its lock is let go", async () => {
    const dir = tempDir("facturar-journal-isdir-");
    mkdirSync(journalPath(dir));
    const opening = Journal.open(dir, KEY, { lock: true, profile: "p" });
    await expect(opening).rejects.toBeInstanceOf(JournalUnwritableError);
    await expect(opening).rejects.toThrow(/EISDIR: a folder is where a file should be/);
    rmdirSync(journalPath(dir));
    const journal = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    await journal.close();
  });

  it("a bug while opening is thrown as it is, not as a disk problem, and the lock is let go", async () => {
    const dir = tempDir("facturar-journal-bug-");
    const bug = Object.assign(new Error("a bug"), { code: "ERR_METHOD_NOT_IMPLEMENTED" });
    const spy = vi.spyOn(AppendLog, "open").mockRejectedValueOnce(bug);
    try {
      await expect(Journal.open(dir, KEY, { lock: true, profile: "p" })).rejects.toBe(bug);
    } finally {
      spy.mockRestore();
    }
    await (await Journal.open(dir, KEY, { lock: true, profile: "p" })).close();
  });
});

describe("reading the journal back", () => {
  it("skips what is not an entry of a reference, and cuts a last line that is not a record", async () => {
    const dir = tempDir("facturar-journal-lines-");
    await (await Journal.open(dir, KEY, { lock: false, profile: "p" })).close();
    const kept = [
      '{"ref":"A","state":"sending","mode":"instant","at":"2026-11-20T10:00:00.000Z","tipo":"FACTURA B"}',
      "not json",
      "null",
      '{"ref":"","state":"issued","mode":"instant","at":"2026-11-20T10:00:00.000Z"}',
      '{"ref":5,"state":"issued","mode":"instant","at":"2026-11-20T10:00:00.000Z"}',
      '["A"]',
      "42",
      '{"ref":"B","state":"sending","mode":"instant","at":"2026-11-20T10:00:01.000Z"}',
      '{"ref":"B","state":"mystery","mode":"instant","at":"2026-11-20T10:00:01.000Z"}',
      '{"ref":"A","state":"issued","mode":"instant","at":"2026-11-20T10:00:02.000Z","numero":3}',
    ];
    appendFileSync(journalPath(dir), `${kept.join("\n")}\n`);
    const header = readFileSync(journalPath(dir), "utf8");
    for (const torn of ['["A"]', "42", "null"]) {
      appendFileSync(journalPath(dir), `${torn}\n`);
      const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
      expect(readFileSync(journalPath(dir), "utf8")).toBe(header);
      expect(refsOf(journal)).toEqual(["A", "B"]);
      expect(journal.get("A")).toEqual({
        ref: "A",
        state: "issued",
        mode: "instant",
        at: "2026-11-20T10:00:02.000Z",
        tipo: "FACTURA B",
        numero: 3,
      });
      expect(journal.stateOf("A")).toEqual({ state: "issued" });
      // A state this version does not know (a newer one wrote it): the entry reads back, and
      // the survey keeps the last state it knows, in flight, to be asked of the service.
      expect(journal.get("B")).toMatchObject({ state: "mystery" });
      expect(journal.stateOf("B")).toEqual({ state: "sending" });
      await journal.close();
    }
  });

  it("tells every state apart without reading the entry", async () => {
    const dir = tempDir("facturar-journal-states-");
    const states = ["sending", "issued", "queued", "queue-error", "rejected", "unknown", "held", "deleted"] as const;
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await journal.recordAll(states.map((state) => ({ ref: `S-${state}`, state, mode: "instant" })));
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    for (const state of states) expect(again.stateOf(`S-${state}`)).toEqual({ state });
    await again.close();
  });

  it("a closed journal reads back only what it had read", async () => {
    const dir = tempDir("facturar-journal-closed-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await journal.recordAll([
      { ref: "A", state: "sending", mode: "instant" },
      { ref: "B", state: "sending", mode: "instant" },
    ]);
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    expect(again.get("A")).toMatchObject({ state: "sending" });
    await again.close();
    expect(again.get("A")).toMatchObject({ state: "sending" });
    expect(again.get("B")).toBeUndefined();
    await expect(again.record({ ref: "C", state: "sending", mode: "instant" })).rejects.toThrow(
      "the journal is closed",
    );
  });
});

describe("when the file system fails under it", () => {
  it("a line that cannot be read back is JournalUnwritableError", async () => {
    const dir = tempDir("facturar-journal-unreadable-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await journal.record({ ref: "A", state: "sending", mode: "instant" });
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    // The file it reads entries back from fails (EISDIR here, in place of EIO on a failing disk).
    const internals = again as unknown as { reader: FileHandle };
    await internals.reader.close();
    internals.reader = await open(dir, "r");
    expect(() => again.get("A")).toThrow(JournalUnwritableError);
    expect(() => again.get("A")).toThrow(`the journal ${again.path} cannot be used: EISDIR`);
    await again.close();
  });

  it("a folder name the system refuses outright (a NUL byte) is a bug, thrown as it is", async () => {
    const opening = Journal.open(join(tempDir(), "a\0b"), KEY, { lock: true, profile: "p" });
    await expect(opening).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(opening).rejects.not.toBeInstanceOf(JournalUnwritableError);
  });
});

describe("the latest day issued in a lane", () => {
  it("is the latest fecha of the lane's issued sales, not of purchases, queued ones or partial entries", async () => {
    const dir = tempDir("facturar-journal-lanes-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    const issued = { state: "issued", mode: "instant", tipo: "FACTURA B", punto_venta: 679 } as const;
    expect(journal.lastIssuedDay(679, "FACTURA B")).toBeUndefined();
    await journal.recordAll([
      { ...issued, ref: "A", fecha: "10/11/2026" },
      { ...issued, ref: "B", fecha: "12/11/2026" },
      { ...issued, ref: "D", fecha: "12/11/2026" },
      { ...issued, ref: "C", fecha: "11/11/2026" },
      { ...issued, ref: "E", fecha: "20/11/2026", state: "queued" },
      { ...issued, ref: "F", fecha: "21/11/2026", operacion: "C" },
      { ...issued, ref: "G", fecha: "22/11/2026", tipo: "FACTURA A" },
      { ...issued, ref: "H", fecha: "23/11/2026", punto_venta: 2 },
      { ref: "I", state: "issued", mode: "instant", tipo: "FACTURA B", fecha: "24/11/2026" },
      { ref: "J", state: "issued", mode: "instant", punto_venta: 679, fecha: "25/11/2026" },
      { ...issued, ref: "K" },
      { ...issued, ref: "L", fecha: "26/11/2026", punto_venta: 0, tipo: "NOTA DE CREDITO B" },
    ]);
    const expected = () => {
      expect(journal.lastIssuedDay(679, "FACTURA B")).toBe(dayNumber("12/11/2026"));
      expect(journal.lastIssuedDay(679, "FACTURA A")).toBe(dayNumber("22/11/2026"));
      expect(journal.lastIssuedDay(2, "FACTURA B")).toBe(dayNumber("23/11/2026"));
      expect(journal.lastIssuedDay(0, "NOTA DE CREDITO B")).toBe(dayNumber("26/11/2026"));
      expect(journal.lastIssuedDay(undefined as never, "FACTURA B")).toBeUndefined();
      expect(journal.lastIssuedDay(679, undefined as never)).toBeUndefined();
    };
    expected();
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    const reopened = journal;
    expect(reopened).not.toBe(again);
    expect(again.lastIssuedDay(679, "FACTURA B")).toBe(dayNumber("12/11/2026"));
    expect(again.lastIssuedDay(0, "NOTA DE CREDITO B")).toBe(dayNumber("26/11/2026"));
    expect(again.lastIssuedDay(679, "NOTA DE CREDITO B")).toBeUndefined();
    await again.close();
  });
});

describe("documents an earlier run could not save", () => {
  it("are listed while the last word about them says missing, for issued vouchers only", async () => {
    const dir = tempDir("facturar-journal-docs-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await journal.recordAll([
      { ref: "A", state: "issued", mode: "instant", documents_missing: true, out_dir: "/a" },
      { ref: "B", state: "issued", mode: "instant", documents_missing: true, out_dir: "/b" },
      { ref: "C", state: "rejected", mode: "instant", documents_missing: true },
    ]);
    // A later line that does not speak of documents leaves them missing.
    await journal.record({ ref: "A", state: "issued", mode: "instant", observations: ["later"] });
    await journal.record({ ref: "B", state: "issued", mode: "instant", documents_missing: false, pdf: "/b/b.pdf" });
    expect(journal.withMissingDocuments().map((e) => e.ref)).toEqual(["A"]);
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    expect(again.withMissingDocuments()).toEqual([expect.objectContaining({ ref: "A", out_dir: "/a" })]);
    await again.close();
  });
});

describe("writing", () => {
  it("fsyncs a write holding a sending entry, and no other", async () => {
    const dir = tempDir("facturar-journal-sync-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    const append = vi.spyOn(AppendLog.prototype, "append");
    try {
      await journal.record({ ref: "A", state: "sending", mode: "instant" });
      await journal.record({ ref: "A", state: "issued", mode: "instant" });
      await journal.recordAll([
        { ref: "B", state: "issued", mode: "instant" },
        { ref: "C", state: "sending", mode: "instant" },
      ]);
      await journal.recordAll([
        { ref: "B", state: "held", mode: "instant" },
        { ref: "C", state: "unknown", mode: "instant" },
      ]);
      expect(append.mock.calls.map(([, opts]) => opts.sync)).toEqual([true, false, true, false]);
    } finally {
      append.mockRestore();
    }
    await journal.close();
  });

  it("stamps each write with the time, and returns the entries merged as they now read", async () => {
    const dir = tempDir("facturar-journal-at-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    const before = Date.now();
    await journal.record({ ref: "A", state: "sending", mode: "instant", tipo: "FACTURA B" });
    const written = await journal.recordAll([
      { ref: "A", state: "issued", mode: "instant", numero: 1 },
      { ref: "B", state: "sending", mode: "instant" },
    ]);
    const after = Date.now();
    expect(written).toEqual([
      { ref: "A", state: "issued", mode: "instant", tipo: "FACTURA B", numero: 1, at: written[0]?.at },
      { ref: "B", state: "sending", mode: "instant", at: written[0]?.at },
    ]);
    const at = Date.parse(written[0]?.at as string);
    expect(new Date(at).toISOString()).toBe(written[0]?.at);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
    await journal.close();
  });

  it("a failed write is JournalUnwritableError when the file system failed, else thrown as it is", async () => {
    const dir = tempDir("facturar-journal-errors-");
    const journal = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    const append = vi.spyOn(AppendLog.prototype, "append");
    const attempt = () => journal.record({ ref: "A", state: "sending", mode: "instant" });
    try {
      append.mockRejectedValueOnce(new DurableWriteError(journal.path, "short write: 3 of 9 bytes written"));
      await expect(attempt()).rejects.toThrow(
        `the journal ${journal.path} cannot be used: cannot write ${journal.path}: short write: 3 of 9 bytes written`,
      );
      append.mockRejectedValueOnce(Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" }));
      await expect(attempt()).rejects.toThrow(`the journal ${journal.path} cannot be used: EIO`);
      for (const code of ["ERR_METHOD_NOT_IMPLEMENTED", "eio", 5]) {
        const bug = Object.assign(new Error("not the disk"), { code });
        append.mockRejectedValueOnce(bug);
        await expect(attempt()).rejects.toBe(bug);
      }
      const plain = new TypeError("a bug");
      append.mockRejectedValueOnce(plain);
      await expect(attempt()).rejects.toBe(plain);
      // Not even an Error: nothing to tell of a disk.
      const thing = { code: "EIO" };
      append.mockRejectedValueOnce(thing);
      await expect(attempt()).rejects.toBe(thing);
    } finally {
      append.mockRestore();
    }
    expect(journal.get("A")).toBeUndefined();
    await journal.close();
  });
});

describe("a new journal, and a reader", () => {
  it("a new journal holds its first line alone, written durably before anything is sent", async () => {
    const dir = tempDir("facturar-journal-new-");
    const append = vi.spyOn(AppendLog.prototype, "append");
    const journal = await Journal.open(dir, KEY, { lock: true, profile: PROFILE });
    expect(append.mock.calls.map(([, opts]) => opts)).toEqual([{ sync: true }]);
    append.mockRestore();
    expect(journal.all()).toEqual([]);
    await journal.close();
    expect(fileRecords(journalPath(dir))).toEqual([
      { t: "account", service: KEY.service, punto_venta: 679, profile: PROFILE },
    ]);
  });

  it("a reader reads the account's journal and cuts nothing, not even a torn last line", async () => {
    const dir = tempDir("facturar-journal-read-");
    const writer = await Journal.open(dir, KEY, { lock: false, profile: "p" });
    await writer.record({
      ref: "N",
      state: "issued",
      mode: "instant",
      tipo: "FACTURA B",
      punto_venta: 679,
      fecha: "02/11/2026",
    });
    await writer.close();
    appendFileSync(journalPath(dir), '{"ref":"N","st');
    const text = readFileSync(journalPath(dir), "utf8");
    const journal = await Journal.open(dir, KEY, { lock: false, readOnly: true, profile: PROFILE });
    expect(refsOf(journal)).toEqual(["N"]);
    expect(journal.lastIssuedDay(679, "FACTURA B")).toBe(dayNumber("02/11/2026"));
    await journal.close();
    expect(readFileSync(journalPath(dir), "utf8")).toBe(text);
  });

  it("a reader with nothing to read creates nothing; one that cannot read says JournalUnwritableError", async () => {
    const dir = join(tempDir("facturar-journal-none-"), "state");
    const journal = await Journal.open(dir, KEY, { lock: false, readOnly: true, profile: "p" });
    expect(journal.all()).toEqual([]);
    expect(journal.get("A")).toBeUndefined();
    await journal.close();
    expect(existsSync(dir)).toBe(false);

    writeFileSync(dir, "");
    await expect(Journal.open(dir, KEY, { lock: false, readOnly: true, profile: "p" })).rejects.toThrow(
      /ENOTDIR: a file is where a folder should be/,
    );
    const folder = tempDir("facturar-journal-folder-");
    mkdirSync(journalPath(folder));
    await expect(Journal.open(folder, KEY, { lock: false, readOnly: true, profile: "p" })).rejects.toThrow(
      JournalUnwritableError,
    );
  });
});

describe("Journal", () => {
  it("merges a reference's lines in order, however many, and says the same after a reopen", async () => {
    const dir = tempDir("facturar-journal-");
    const journal = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    await journal.record({ ref: "A", state: "sending", mode: "instant", tipo: "FACTURA B", source: "a.csv:row 2" });
    await journal.record({ ref: "B", state: "sending", mode: "instant", tipo: "FACTURA A" });
    await journal.record({ ref: "A", state: "unknown", mode: "instant", errors: ["no answer"] });
    await journal.record({ ref: "A", state: "sending", mode: "instant", sent_at: "2026-11-23T10:00:00.000Z" });
    const last = await journal.record({ ref: "A", state: "issued", mode: "instant", numero: 12, cae: "7512" });
    expect(last).toMatchObject({ ref: "A", state: "issued", tipo: "FACTURA B", source: "a.csv:row 2", numero: 12 });
    await journal.recordAll([
      { ref: "B", state: "issued", mode: "instant", numero: 3, documents_missing: true, out_dir: "/x" },
      { ref: "Ñandú-€", state: "rejected", mode: "instant", errors: ["texto con ñ y €"] },
    ]);
    const before = ["A", "B", "Ñandú-€"].map((ref) => journal.get(ref));
    await journal.close();

    const again = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    expect(["A", "B", "Ñandú-€"].map((ref) => again.get(ref))).toEqual(before);
    expect(again.get("A")).toMatchObject({
      state: "issued",
      errors: ["no answer"],
      sent_at: "2026-11-23T10:00:00.000Z",
    });
    expect(again.get("nope")).toBeUndefined();
    // The state alone, as the pre-send survey asks it, agrees without reading the file.
    for (const ref of ["A", "B", "Ñandú-€"]) expect(again.stateOf(ref)).toEqual({ state: again.get(ref)?.state });
    expect(again.stateOf("nope")).toBeUndefined();
    expect(again.all().map((e) => e.ref)).toEqual(["A", "B", "Ñandú-€"]);
    expect(again.withMissingDocuments().map((e) => e.ref)).toEqual(["B"]);
    await again.record({ ref: "B", state: "issued", mode: "instant", documents_missing: false, pdf: "/x/b.pdf" });
    expect(again.withMissingDocuments()).toEqual([]);
    await again.close();

    // A torn last line (a crash mid-write) is cut off; the rest reads back the same.
    appendFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl")) as string), '{"ref":"A","sta');
    const read = await Journal.open(dir, KEY, { lock: false, readOnly: true, profile: "p" });
    expect(read.get("A")).toEqual(before[0]);
    expect(read.get("B")).toMatchObject({
      state: "issued",
      tipo: "FACTURA A",
      numero: 3,
      out_dir: "/x",
      documents_missing: false,
      pdf: "/x/b.pdf",
    });
    await read.close();
  });

  it("reads back entries of a journal of many thousands, each its own", async () => {
    const dir = tempDir("facturar-journal-many-");
    const journal = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    for (let i = 0; i < 5000; i += 100) {
      const refs = Array.from({ length: 100 }, (_, k) => `R-${i + k}`);
      await journal.recordAll(
        refs.map((ref) => ({ ref, state: "sending" as const, mode: "instant" as const, total: ref })),
      );
      await journal.recordAll(
        refs.map((ref, k) => ({ ref, state: "issued" as const, mode: "instant" as const, numero: i + k })),
      );
    }
    await journal.close();
    const again = await Journal.open(dir, KEY, { lock: true, profile: "p" });
    for (const n of [0, 1, 1023, 1024, 2047, 2048, 4999]) {
      expect(again.get(`R-${n}`)).toMatchObject({ state: "issued", numero: n, total: `R-${n}` });
      expect(again.stateOf(`R-${n}`)).toEqual({ state: "issued" });
    }
    // Read back one by one, far more than are kept parsed: each still its own.
    const all = again.all();
    expect(all).toHaveLength(5000);
    expect(all.every((e, n) => e.ref === `R-${n}` && e.numero === n && e.total === `R-${n}`)).toBe(true);
    await again.close();
  });
});
