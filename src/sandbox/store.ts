/**
 * The development-mode service's state, kept in an append-only log of JSON lines in the data
 * folder. Every change is applied in memory at once (numbering stays sequential) and made durable
 * by a group commit: the records of all requests in flight are written and fsynced together, and
 * each request answers only after its records are on disk. Replaying the log rebuilds the state;
 * a torn last line from a crash is dropped. Lookups are by index, so issuing does not slow down
 * as vouchers accumulate.
 *
 * When a write fails (a full disk, `ulimit -f`, a read-only file system) the state in memory is
 * ahead of the disk: the store is then broken (`failure`), rejects every commit, and the server
 * answers 503 to everything until the sandbox is restarted and replays what is really on disk.
 * The log (src/durable/append-log.ts) leaves no partial record behind; the folder's lock
 * (src/durable/lock.ts) survives reboots and reused pids.
 */

import { randomBytes, randomInt } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AppendLog, DurableWriteError } from "../durable/append-log.js";
import { diskCause, isDiskError } from "../durable/disk.js";
import { acquireLock, type HeldLock, LockBusyError, readLockHolder } from "../durable/lock.js";
import { FacturarError, WordedError } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";
import { dayNumber } from "../voucher/dates.js";
import { cuitCheckDigit } from "../voucher/ids.js";
import type { Json } from "./reply.js";

export interface PointOfSale {
  punto_venta: number;
  usertoken: string;
  apikey: string;
  apitoken: string;
}

export interface Account {
  cuit: string;
  razon_social: string;
  points_of_sale: PointOfSale[];
  quota: number;
  created: string;
}

/** The estado the service writes of a voucher (consulta), not the outcome a run reports (batch/result.ts VoucherStatus). */
export type ServiceEstado =
  | "EN COLA, ESPERANDO APROBACION"
  | "APROBADO Y EN COLA"
  | "ENVIADO A PROCESAR - CON ERROR"
  | "EMITIDO";

/** A voucher as the service keeps it: the request as sent, plus what the service added. */
export interface StoredVoucher {
  id: number;
  punto_venta: number;
  tipo: string;
  /** 0 while queued. */
  numero: number;
  external_reference: string;
  fecha: string;
  vencimiento: string;
  status: ServiceEstado;
  queued: boolean;
  deleted: boolean;
  attempts: number;
  /** The authority approved it with this observation (the `observe` fault). */
  observations?: string;
  errors: string[];
  /** The request's `cliente` or `proveedor` and `comprobante`, as received. */
  party: Record<string, unknown>;
  comprobante: Record<string, unknown>;
  created: string;
  /**
   * "C" for a purchase: it carries the supplier's point of sale and number (`comprobante`), stays
   * out of the sales numbering, and `punto_venta`/`numero` here are the credentials' point of
   * sale and the supplier's number. Absent on sales (logs written before purchases replay as such).
   */
  operacion?: "C";
}

/** A payment recorded against a voucher (`facturacion/pagar`). */
export interface StoredPayment {
  voucherId: number;
  /** dd/mm/yyyy, the day it was recorded. */
  fecha: string;
  formas_pago: { descripcion: string; importe: number }[];
  total: number;
}

export interface StoredLink {
  token: string;
  voucherId: number;
  kind: "pdf" | "ticket";
  /** Argentina day number on which the link was handed out; valid that day only. */
  day: number;
}

type LogRecord =
  | { t: "account"; account: Account }
  | { t: "voucher"; voucher: StoredVoucher }
  | { t: "update"; id: number; patch: Partial<StoredVoucher> }
  | { t: "customer"; key: string; customer: Record<string, unknown> }
  | { t: "product"; key: string; product: Record<string, unknown> }
  | { t: "link"; link: StoredLink }
  /** `pool`: VOUCHERS or a method's path; absent in logs written before quotas were per method (the one pool, read as the vouchers'). */
  | { t: "quota"; used: number; pool?: string }
  | { t: "payment"; payment: StoredPayment };

/** The quota of the vouchers the issuing methods send (what `micuenta/consumo` reports). */
export const VOUCHERS = "comprobantes";

const LOG = "sandbox.log";
const LOCK = "sandbox.lock";

function token(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

function fictitiousCuit(): string {
  for (;;) {
    const body = `20${String(randomInt(10_000_000, 99_999_999))}`;
    const digit = cuitCheckDigit(body);
    if (digit < 10) return `${body}${digit}`;
  }
}

/** `now`: the sandbox's clock (FACTURAR_TODAY moves it), which the plan's days are counted on. */
function newAccount(quota: number, now: Date = new Date()): Account {
  // Fictitious points of sale, as the development plan gives (its documentation shows 679).
  const points = [679, 680].map((punto_venta) => ({
    punto_venta,
    usertoken: token(16),
    apikey: String(randomInt(10_000, 99_999)),
    apitoken: token(16),
  }));
  return {
    cuit: fictitiousCuit(),
    razon_social: "Empresa de Desarrollo SA",
    points_of_sale: points,
    quota,
    created: now.toISOString(),
  };
}

export class Store {
  account!: Account;
  private readonly vouchers = new Map<number, StoredVoucher>();
  private readonly byNumber = new Map<string, number>();
  /** Purchases by the credentials' point of sale, type, supplier's point of sale and number (suppliers may share them). */
  private readonly purchasesByNumber = new Map<string, number[]>();
  private readonly payments = new Map<number, StoredPayment[]>();
  private readonly byReference = new Map<string, number[]>();
  /** Per point of sale, voucher ids in creation order (queries page newest first). */
  private readonly byPointOfSale = new Map<number, number[]>();
  private readonly nextNumbers = new Map<string, number>();
  /** The latest date issued in each lane (point of sale and type): the authority refuses earlier ones. */
  private readonly lastDays = new Map<string, number>();
  /**
   * What each of the plan's quotas has used (spec §8: not one pool, each method its own): the
   * vouchers' (VOUCHERS, the issuing methods), and each other method's requests under its path.
   */
  private readonly quotas = new Map<string, number>();
  /** Queued (not yet issued, not deleted) voucher ids per point of sale. */
  private readonly queued = new Map<number, Set<number>>();
  readonly customers = new Map<string, Record<string, unknown>>();
  readonly products = new Map<string, Record<string, unknown>>();
  private readonly links = new Map<string, StoredLink>();
  /** The newest PDF and ticket link of each voucher. */
  private readonly latest = new Map<number, { pdf?: string; ticket?: string }>();
  private nextId = 1;

  private log?: AppendLog;
  private pending: { line: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing?: Promise<void>;
  private lock?: HeldLock;
  /** The newest commit: it settles after every earlier one (groups are written in order). */
  private last: Promise<void> = Promise.resolve();
  /** Set when a write failed: memory is ahead of the disk, and nothing more is stored or answered. */
  failure?: DurableWriteError;
  /** Told once, when `failure` is set: the embedded sandbox's host says it to its user. */
  onFailure?: (failure: DurableWriteError) => void;

  private constructor(readonly dataDir: string) {}

  /** Opens (or creates) the state in `dataDir`; refuses a folder another live sandbox holds. */
  static async open(dataDir: string, opts: { quota?: number; now?: () => Date } = {}): Promise<Store> {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      if (isDiskError(error)) throw new SandboxFolderError(dataDir, diskCause(error, dataDir));
      throw error;
    }
    const store = new Store(dataDir);
    try {
      store.lock = acquireLock(join(dataDir, LOCK));
    } catch (error) {
      if (error instanceof LockBusyError) throw new SandboxInUseError(dataDir, holderOf(error.holder));
      if (isDiskError(error)) throw new SandboxFolderError(dataDir, diskCause(error, join(dataDir, LOCK)));
      throw error;
    }
    try {
      // Each line is parsed once, here: a line that does not parse is torn (last) or corrupt.
      const records: LogRecord[] = [];
      const { log } = await AppendLog.open(join(dataDir, LOG), {
        keepLines: false,
        isRecord: (line) => {
          let record: unknown;
          try {
            record = JSON.parse(line);
          } catch {
            return false;
          }
          if (!record || typeof record !== "object" || typeof (record as LogRecord).t !== "string") return false;
          records.push(record as LogRecord);
          return true;
        },
      });
      store.log = log;
      for (const record of records) store.apply(record);
      if (!store.account) {
        const account = newAccount(opts.quota ?? 1500, opts.now?.());
        await store.commit([{ t: "account", account }]);
        store.account = account;
      } else if (opts.quota !== undefined && opts.quota !== store.account.quota) {
        const account = { ...store.account, quota: opts.quota };
        store.account = account;
        await store.commit([{ t: "account", account }]);
      }
    } catch (error) {
      await store.close().catch(() => {});
      if (isDiskError(error)) throw new SandboxFolderError(dataDir, diskCause(error, join(dataDir, LOG)));
      throw error;
    }
    return store;
  }

  /**
   * Records where this sandbox listens, so that another process can use it instead of failing,
   * how long after a request it may still be storing a voucher, and the spacing it asks between
   * requests (its faults decide both).
   */
  announce(baseUrl: string, settleWindowMs?: number, spacingMs?: number): void {
    this.lock?.update({
      base_url: baseUrl,
      ...(settleWindowMs !== undefined ? { settle_window_ms: settleWindowMs } : {}),
      ...(spacingMs ? { spacing_ms: spacingMs } : {}),
    });
  }

  private apply(record: LogRecord): void {
    switch (record.t) {
      case "account":
        this.account = record.account;
        break;
      case "voucher":
        this.index(record.voucher);
        break;
      case "update": {
        const v = this.vouchers.get(record.id);
        if (v) this.patch(v, record.patch);
        break;
      }
      case "customer":
        this.customers.set(record.key, record.customer);
        break;
      case "product":
        this.products.set(record.key, record.product);
        break;
      case "link":
        this.remember(record.link);
        break;
      case "quota":
        this.quotas.set(record.pool ?? VOUCHERS, record.used);
        break;
      case "payment":
        this.rememberPayment(record.payment);
        break;
    }
  }

  private index(v: StoredVoucher): void {
    this.vouchers.set(v.id, v);
    this.nextId = Math.max(this.nextId, v.id + 1);
    const refs = this.byReference.get(v.external_reference) ?? [];
    refs.push(v.id);
    this.byReference.set(v.external_reference, refs);
    const list = this.byPointOfSale.get(v.punto_venta) ?? [];
    list.push(v.id);
    this.byPointOfSale.set(v.punto_venta, list);
    if (v.operacion === "C") {
      const key = purchaseKey(v.punto_venta, v.tipo, Number(v.comprobante.punto_venta), v.numero);
      this.purchasesByNumber.set(key, [...(this.purchasesByNumber.get(key) ?? []), v.id]);
    } else if (v.numero > 0) this.numbered(v);
    this.trackQueue(v);
  }

  private trackQueue(v: StoredVoucher): void {
    let set = this.queued.get(v.punto_venta);
    if (!set) {
      set = new Set();
      this.queued.set(v.punto_venta, set);
    }
    if (v.queued && !v.deleted) set.add(v.id);
    else set.delete(v.id);
  }

  private numbered(v: StoredVoucher): void {
    this.byNumber.set(`${v.punto_venta}|${v.tipo}|${v.numero}`, v.id);
    const key = `${v.punto_venta}|${v.tipo}`;
    this.nextNumbers.set(key, Math.max(this.nextNumbers.get(key) ?? 1, v.numero + 1));
    this.lastDays.set(key, Math.max(this.lastDays.get(key) ?? Number.NEGATIVE_INFINITY, dayNumber(v.fecha)));
  }

  private patch(v: StoredVoucher, patch: Partial<StoredVoucher>): void {
    Object.assign(v, patch);
    if (patch.numero !== undefined && patch.numero > 0 && v.operacion !== "C") this.numbered(v);
    this.trackQueue(v);
  }

  // --- writes: applied now, durable when the returned promise resolves ---

  /**
   * Makes `records` durable (they are already applied in memory). The promise rejects if they
   * could not be written; it is marked handled, so a caller that fails before awaiting it does
   * not crash the process: the store's `failure` is what stops everything.
   */
  commit(records: LogRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const line = records.map((r) => JSON.stringify(r)).join("\n");
    const durable = this.failure
      ? Promise.reject(this.failure)
      : new Promise<void>((resolve, reject) => {
          this.pending.push({ line, resolve, reject });
          this.flushing ??= this.flush();
        });
    durable.catch(() => {});
    this.last = durable;
    return durable;
  }

  /**
   * Settles when everything applied in memory so far is on disk; rejects if it never will be.
   * A reply computed from the state as it is now must wait for it before it is sent.
   */
  settled(): Promise<void> {
    return this.last;
  }

  private async flush(): Promise<void> {
    // Let the requests of this turn of the event loop join the same write.
    await new Promise((r) => setImmediate(r));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        if (this.failure) throw this.failure;
        if (!this.log) throw new DurableWriteError(join(this.dataDir, LOG), msg("the sandbox store is closed"));
        // One write and one fsync for the whole group.
        await this.log.append(`${batch.map((p) => p.line).join("\n")}\n`, { sync: true });
        for (const p of batch) p.resolve();
      } catch (error) {
        // What is in memory is no longer what is on disk: stop here, until a restart replays the log.
        if (!this.failure) {
          this.failure =
            error instanceof DurableWriteError
              ? error
              : new DurableWriteError(join(this.dataDir, LOG), (error as Error).message, undefined, { cause: error });
          this.onFailure?.(this.failure);
        }
        for (const p of batch) p.reject(this.failure);
      }
    }
    this.flushing = undefined;
  }

  addVoucher(v: Omit<StoredVoucher, "id">): { voucher: StoredVoucher; durable: Promise<void> } {
    const voucher = { ...v, id: this.nextId++ } as StoredVoucher;
    this.index(voucher);
    return { voucher, durable: this.commit([{ t: "voucher", voucher }]) };
  }

  update(v: StoredVoucher, patch: Partial<StoredVoucher>): Promise<void> {
    this.patch(v, patch);
    return this.commit([{ t: "update", id: v.id, patch }]);
  }

  saveCustomer(key: string, customer: Record<string, unknown>): Promise<void> {
    this.customers.set(key, customer);
    return this.commit([{ t: "customer", key, customer }]);
  }

  saveProduct(key: string, product: Record<string, unknown>): Promise<void> {
    this.products.set(key, product);
    return this.commit([{ t: "product", key, product }]);
  }

  addPayment(payment: StoredPayment): Promise<void> {
    this.rememberPayment(payment);
    return this.commit([{ t: "payment", payment }]);
  }

  private rememberPayment(payment: StoredPayment): void {
    this.payments.set(payment.voucherId, [...(this.payments.get(payment.voucherId) ?? []), payment]);
  }

  paymentsOf(voucherId: number): StoredPayment[] {
    return this.payments.get(voucherId) ?? [];
  }

  addLink(voucherId: number, kind: "pdf" | "ticket", day: number): { link: StoredLink; durable: Promise<void> } {
    const link = { token: token(12), voucherId, kind, day };
    this.remember(link);
    return { link, durable: this.commit([{ t: "link", link }]) };
  }

  /** What a quota has used: VOUCHERS, or a method's path. */
  quotaUsed(pool: string): number {
    return this.quotas.get(pool) ?? 0;
  }

  /**
   * Counts `n` against a quota (VOUCHERS, or a method's path) of `account.quota` each; false (and
   * nothing counted) when it is exhausted.
   */
  useQuota(pool: string, n: number): { ok: boolean; durable: Promise<void> } {
    const used = this.quotaUsed(pool);
    if (used >= this.account.quota) return { ok: false, durable: Promise.resolve() };
    this.quotas.set(pool, used + n);
    return { ok: true, durable: this.commit([{ t: "quota", pool, used: used + n }]) };
  }

  // --- reads ---

  nextNumber(pointOfSale: number, tipo: string): number {
    return this.nextNumbers.get(`${pointOfSale}|${tipo}`) ?? 1;
  }

  /** The day of the latest voucher issued in the lane, if any. */
  lastDay(pointOfSale: number, tipo: string): number | undefined {
    return this.lastDays.get(`${pointOfSale}|${tipo}`);
  }

  /** Takes the next number of the lane: instant issuing and the queue worker share it. */
  takeNumber(pointOfSale: number, tipo: string): number {
    const key = `${pointOfSale}|${tipo}`;
    const n = this.nextNumbers.get(key) ?? 1;
    this.nextNumbers.set(key, n + 1);
    return n;
  }

  byId(id: number): StoredVoucher | undefined {
    return this.vouchers.get(id);
  }

  findByNumber(pointOfSale: number, tipo: string, numero: number): StoredVoucher | undefined {
    const id = this.byNumber.get(`${pointOfSale}|${tipo}|${numero}`);
    return id === undefined ? undefined : this.live(id);
  }

  /** The live purchases recorded at a point of sale under a supplier's type, point of sale and number. */
  findPurchases(pointOfSale: number, tipo: string, supplierPointOfSale: number, numero: number): StoredVoucher[] {
    return (this.purchasesByNumber.get(purchaseKey(pointOfSale, tipo, supplierPointOfSale, numero)) ?? [])
      .map((id) => this.live(id))
      .filter((v): v is StoredVoucher => v !== undefined);
  }

  findByReference(pointOfSale: number, reference: string): StoredVoucher[] {
    return (this.byReference.get(reference) ?? [])
      .map((id) => this.live(id))
      .filter((v): v is StoredVoucher => v !== undefined && v.punto_venta === pointOfSale);
  }

  /** Vouchers of a point of sale, newest first, filtered. */
  *newestFirst(pointOfSale: number, filter: (v: StoredVoucher) => boolean): Generator<StoredVoucher> {
    const ids = this.byPointOfSale.get(pointOfSale) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const v = this.live(ids[i] as number);
      if (v && filter(v)) yield v;
    }
  }

  /** Queued vouchers, oldest first. */
  queuedVouchers(): StoredVoucher[] {
    const out: StoredVoucher[] = [];
    for (const ids of this.queued.values()) for (const id of ids) out.push(this.vouchers.get(id) as StoredVoucher);
    return out.sort((a, b) => a.id - b.id);
  }

  hasQueued(pointOfSale: number): boolean {
    return (this.queued.get(pointOfSale)?.size ?? 0) > 0;
  }

  private remember(link: StoredLink): void {
    this.links.set(link.token, link);
    this.latest.set(link.voucherId, { ...this.latest.get(link.voucherId), [link.kind]: link.token });
  }

  linksOf(voucherId: number): { pdf?: string; ticket?: string } {
    return this.latest.get(voucherId) ?? {};
  }

  link(tokenValue: string): StoredLink | undefined {
    return this.links.get(tokenValue);
  }

  count(): number {
    return this.vouchers.size;
  }

  private live(id: number): StoredVoucher | undefined {
    const v = this.vouchers.get(id);
    return v && !v.deleted ? v : undefined;
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    const log = this.log;
    this.log = undefined;
    try {
      await log?.close();
    } finally {
      this.lock?.release();
      this.lock = undefined;
    }
  }
}

function purchaseKey(pointOfSale: number, tipo: string, supplierPointOfSale: number, numero: number): string {
  return `C|${pointOfSale}|${tipo}|${supplierPointOfSale}|${numero}`;
}

export interface LockHolder {
  pid: number;
  base_url?: string;
  /** How long after a request the holder may still be storing a voucher. */
  settle_window_ms?: number;
  /** The least ms the holder lets between two requests (its `spacing` fault). */
  spacing_ms?: number;
}

/**
 * The sandbox's folder cannot hold its state (read-only, a file in the way, full): a local disk
 * failure, exit 6; `sandbox --data-dir` turns it into a usage error, the folder being the flag's.
 */
export class SandboxFolderError extends FacturarError {
  constructor(
    readonly dataDir: string,
    cause: Text,
  ) {
    super(
      msg("the sandbox data folder {dataDir} cannot be used: {message}", { dataDir, message: cause }),
      "unavailable",
      "sandbox.unwritable",
      msg("fix the folder (its permissions, free space), or point XDG_DATA_HOME elsewhere"),
    );
  }
}

export class SandboxInUseError extends WordedError {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(msg("the sandbox data folder {dataDir} is in use by process {pid}", { dataDir, pid: holder.pid }));
  }
}

function holderOf(owner: {
  pid: number;
  base_url?: unknown;
  settle_window_ms?: unknown;
  spacing_ms?: unknown;
}): LockHolder {
  return {
    pid: owner.pid,
    ...(typeof owner.base_url === "string" ? { base_url: owner.base_url } : {}),
    ...(typeof owner.settle_window_ms === "number" ? { settle_window_ms: owner.settle_window_ms } : {}),
    ...(typeof owner.spacing_ms === "number" ? { spacing_ms: owner.spacing_ms } : {}),
  };
}

/** The live sandbox holding `dataDir`, and where it listens once it does; undefined if none. */
export function readLock(dataDir: string): LockHolder | undefined {
  const owner = readLockHolder(join(dataDir, LOCK));
  return owner ? holderOf(owner) : undefined;
}

/** The account as the log last recorded it, read without taking the lock (for a second process). */
export function readAccount(dataDir: string): Account | undefined {
  let account: Account | undefined;
  try {
    for (const line of readFileSync(join(dataDir, LOG), "utf8").split("\n")) {
      if (!line.startsWith('{"t":"account"')) continue;
      try {
        account = (JSON.parse(line) as { account: Account }).account;
      } catch {
        // torn line
      }
    }
  } catch {
    return undefined;
  }
  return account;
}

/** The point of sale a voucher shows: a purchase's is the supplier's. */
export function shownPointOfSale(v: StoredVoucher): number {
  return v.operacion === "C" ? Number((v.comprobante as Json).punto_venta) : v.punto_venta;
}

/** A party as the service shows it: without the kind the store keeps (customer or supplier). */
export function stripKind(party: Json): Json {
  const { kind: _kind, ...rest } = party;
  return rest;
}
