/**
 * Issuing exactly once. The service is the source of truth; the journal is its memory:
 * - a reference the journal holds as issued is not sent again;
 * - any other reference is first looked up at the service (a batch lists its dates once; single
 *   vouchers ask by reference), so a lost journal, another machine or another profile name for
 *   the same account cannot make a second voucher;
 * - `sending` is fsynced before each send; an answer that never came is settled by asking the
 *   service, and "not found" is final only once the service can no longer be storing it (the
 *   settle window after the send);
 * - the queue belongs to the service: an errored queued voucher is re-queued or reported, never
 *   replaced by a second one; one deleted from the queue may be sent again.
 */

import { existsSync } from "node:fs";
import { TransportError } from "../api/http.js";
import {
  type BatchAnswer,
  type IssueAnswer,
  type IssueMode,
  namedRow,
  type Operacion,
  preferred,
  refusalCauses,
  type Service,
  type ServiceVoucher,
} from "../api/protocol.js";
import { currentBoot } from "../durable/lock.js";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { documentName } from "../output/files.js";
import { voucherNumber } from "../voucher/codes.js";
import { Dec } from "../voucher/decimal.js";
import type { Envelope } from "../voucher/schema.js";
import { escapeEnvelope } from "../voucher/text.js";
import { DEFAULTED, defaultedFields } from "../voucher/validate.js";
import { NoDocument, saveDocument } from "./documents.js";
import {
  contentDigest,
  derivedReference,
  inFlight,
  type Journal,
  type JournalEntry,
  JournalUnwritableError,
  monotonicMs,
  settledInJournal,
  sinceSent,
} from "./journal.js";
import { blankResult, type VoucherResult } from "./result.js";

export type { VoucherResult, VoucherStatus } from "./result.js";

/** A voucher after `begin`: settled already (`result`), or journaled as sending under `reference`. */
export type Begun =
  | { voucher: PreparedVoucher; result: VoucherResult }
  | { voucher: PreparedVoucher; reference: string; journaledAt: number };

/**
 * What lanes, the pre-send survey and a held result need of a voucher. A big run keeps only this
 * in memory; the envelope waits in an EnvelopeStore until its lane sends it.
 */
export interface VoucherHeading {
  source: string;
  reference: string;
  tipo: string;
  punto_venta: number | undefined;
  fecha: string;
  vencimiento: string;
  total: string | undefined;
  /** V for a sale, C for a purchase (a voucher with `proveedor`): they are listed apart. */
  operacion: "V" | "C";
  /**
   * The file left out `fecha` and the voucher is dated today: sent on another day before, it
   * carries that day's date at the service, so no listing of today can tell.
   */
  datedToday: boolean;
}

export interface PreparedVoucher extends VoucherHeading {
  /** The normalised envelope, before escaping. */
  envelope: Envelope;
  /** What the voucher says, without its reference and number (see contentDigest). */
  digest: string;
}

/** The heading of a validated envelope, as Issuer.prepare will make it. */
export function headingOf(envelope: Envelope, source: string, puntoVenta: number | undefined): VoucherHeading {
  const c = envelope.comprobante;
  return {
    source,
    reference: c.external_reference ?? derivedReference(envelope as never, puntoVenta),
    tipo: c.tipo,
    punto_venta: c.punto_venta ?? puntoVenta,
    fecha: c.fecha,
    vencimiento: c.vencimiento,
    total: c.total,
    operacion: "proveedor" in envelope && envelope.proveedor ? "C" : "V",
    datedToday: defaultedFields(envelope).includes("fecha"),
  };
}

export interface IssueSettings {
  mode: IssueMode;
  /** Send again a reference the journal or the service holds as issued (with a new reference). */
  allowDuplicate: boolean;
  savePdf: boolean;
  /** Lanes go on to their next voucher while documents download (see takeDownload). */
  deferDocuments?: boolean;
  outDir: string;
  /** Queued mode: follow each voucher until it is issued or fails. */
  wait: boolean;
  waitTimeoutMs: number;
  pollMs?: number;
  /**
   * How long after a send the service may still be storing the voucher (the real platform holds
   * a call for about 90 s): a lookup that finds nothing inside this window is not final.
   */
  settleWindowMs: number;
  /** Put an errored queued voucher back in the queue (`reenviar_encolado`) instead of reporting it. */
  requeue?: boolean;
  sleep?: (ms: number) => Promise<void>;
  /** The clock waits and the settle window are measured on: the monotonic one by default (see monotonicMs). */
  now?: () => number;
  /** The wall clock, for the times people read (`sent_at`). */
  wall?: () => number;
  /** This boot of the machine, which makes a journaled monotonic time comparable (see sinceSent). */
  boot?: string;
}

/** A voucher of a batch to be sent: its place in the batch as the lane gave it. */
interface Pending {
  index: number;
  voucher: PreparedVoucher;
  reference: string;
}

/** The error code of a voucher sent several times without an answer, which the service lacks. */
export const NO_ANSWER = "no-answer";
/** The error code of a batch item the service did not process because an earlier one failed. */
export const NOT_PROCESSED = "not-processed";

/**
 * The service refused to work at all (access denied, maintenance, the authority down, no way to
 * ask it): nothing more is sent this run. Carries the service's own error.
 */
export class ServiceStop extends Error {
  /** Out of a batch: the results its vouchers had before the stop, by position (the rest were not sent). */
  settled?: (VoucherResult | undefined)[];

  constructor(readonly reason: FacturarError) {
    super(reason.message);
  }
}

/** A failure that is the service's, not one voucher's: it stops the run. */
export function isServiceFailure(error: unknown): error is FacturarError {
  if (!(error instanceof FacturarError)) return false;
  if (error.outcome === "denied" || error.outcome === "unavailable") return true;
  // A bad request is that voucher's; any other HTTP status would be every voucher's.
  return error.code.startsWith("http.") && !["http.400", "http.413", "http.422"].includes(error.code);
}

/** Could not ask the service about a reference (after retries). */
class LookupFailed extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

/** A lookup that only adds to what is known: if the service cannot be asked, nothing is learnt. */
function ignoreLookupFailure(error: unknown): undefined {
  if (error instanceof LookupFailed) return undefined;
  throw error;
}

export class Issuer {
  private readonly downloads = new Map<string, Promise<VoucherResult>>();
  /** What a date listing made before the lanes started found: reference → vouchers. */
  private readonly listed = new Map<string, ServiceVoucher[]>();
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly wall: () => number;
  private readonly boot: string | undefined;
  private journalFault?: JournalUnwritableError;
  /** Why --wait could not follow queued vouchers (the service could not be asked), if so. */
  private followFault?: Error;
  private readonly unwritten: Omit<JournalEntry, "at">[] = [];

  constructor(
    private readonly service: Service,
    private readonly journal: Journal,
    private readonly settings: IssueSettings,
    private readonly warn: (line: string) => void,
  ) {
    this.sleep = settings.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = settings.now ?? monotonicMs;
    this.wall = settings.wall ?? Date.now;
    this.boot = settings.boot ?? currentBoot();
  }

  /**
   * The journal failed to take an entry (a full or read-only disk): nothing more is sent, but
   * every outcome the service gave is still told, and written again at the end (flushUnwritten).
   */
  halted(): FacturarError | undefined {
    return this.journalFault;
  }

  /** Why --wait could not follow some queued vouchers to their outcome, if it could not. */
  unfollowed(): FacturarError | undefined {
    return this.followFault ? asFacturarError(this.followFault) : undefined;
  }

  /**
   * Writes the outcomes the journal could not take when they came, if it takes them now (a full
   * disk may have room for a line again). Returns how many are still not written: the next run
   * asks the service about those (the journal says `sending`).
   */
  async flushUnwritten(): Promise<number> {
    const entries = this.unwritten.splice(0);
    let left = 0;
    for (const entry of entries) {
      try {
        await this.journal.record(entry);
      } catch (error) {
        if (!(error instanceof JournalUnwritableError)) throw error;
        left++;
      }
    }
    return left;
  }

  /** An outcome for the journal; one it cannot take is kept for flushUnwritten and stops the run. */
  private async record(entry: Omit<JournalEntry, "at">): Promise<void> {
    await this.recordAll([entry]);
  }

  private async recordAll(entries: Omit<JournalEntry, "at">[]): Promise<void> {
    try {
      await this.journal.recordAll(entries);
    } catch (error) {
      if (!(error instanceof JournalUnwritableError)) throw error;
      this.journalFault ??= error;
      this.unwritten.push(...entries);
    }
  }

  /** A `sending` entry: without it nothing may be sent, so its failure stops the run here. */
  private async strictRecordAll(entries: Omit<JournalEntry, "at">[]): Promise<void> {
    try {
      await this.journal.recordAll(entries);
    } catch (error) {
      if (!(error instanceof JournalUnwritableError)) throw error;
      this.journalFault ??= error;
      throw new ServiceStop(error);
    }
  }

  /** Fills the reference and the point of sale; queued methods want numero 0. */
  static prepare(envelope: Envelope, source: string, puntoVenta: number | undefined, mode: IssueMode): PreparedVoucher {
    const heading = headingOf(envelope, source, puntoVenta);
    const comprobante = { ...envelope.comprobante, external_reference: heading.reference };
    if (comprobante.punto_venta === undefined && puntoVenta !== undefined) comprobante.punto_venta = puntoVenta;
    if (mode === "queued") comprobante.numero = 0;
    const prepared = { ...envelope, comprobante };
    return { ...heading, envelope: prepared, digest: contentDigest(prepared as never) };
  }

  /**
   * Before the lanes start, in instant mode: lists each date of the run once (paged) for the
   * references the journal cannot settle, so each one the service holds there costs no lookup of
   * its own (a run again after the journal was lost). A listing proves presence, never absence:
   * the service may hold a reference under another date (a queued voucher moved to another day,
   * a file whose dates changed since it was sent), so every reference not found is asked for by
   * reference. A date whose listing would take more pages than it has references is skipped.
   * Queued vouchers change dates in the queue, so they are always looked up by reference.
   */
  async survey(vouchers: Iterable<VoucherHeading>): Promise<void> {
    if (this.settings.mode !== "instant") return;
    // Sales and purchases are listed apart (`operacion`), each date once.
    const byDate = new Map<string, { fecha: string; operacion: "V" | "C"; refs: Set<string> }>();
    for (const v of vouchers) {
      const known = this.journal.stateOf(v.reference);
      if (settledInJournal(known) || inFlight(known)) continue;
      const { fecha, operacion } = v;
      // Dated today for want of a date: looked up by its reference instead.
      if (!fecha || v.datedToday) continue;
      const key = `${operacion}|${fecha}`;
      const group = byDate.get(key) ?? { fecha, operacion, refs: new Set<string>() };
      group.refs.add(v.reference);
      byDate.set(key, group);
    }
    for (const { fecha, operacion, refs } of byDate.values()) {
      if (refs.size < 2) continue;
      const seen = new Map<string, ServiceVoucher[]>();
      let items = 0;
      try {
        for await (const v of this.service.listByDate(fecha, operacion)) {
          if (++items > refs.size * 1000) break;
          if (refs.has(v.external_reference))
            seen.set(v.external_reference, [...(seen.get(v.external_reference) ?? []), v]);
        }
      } catch (error) {
        this.warn(
          t("could not list the vouchers of {fecha} ({message}); asking about each voucher instead", {
            fecha,
            message: (error as Error).message,
          }),
        );
        continue;
      }
      for (const [ref, list] of seen) this.listed.set(ref, list);
    }
  }

  async issue(voucher: PreparedVoucher): Promise<VoucherResult> {
    return this.finish(await this.begin(voucher));
  }

  /**
   * The first half of issuing: decide from the journal and the service and, when the voucher is
   * to be sent, fsync its `sending` entry. A lane does this for its next voucher while the
   * current one is in flight.
   */
  async begin(voucher: PreparedVoucher): Promise<Begun> {
    const decided = await this.decide(voucher);
    if ("result" in decided) return { voucher, result: decided.result };
    await this.journalSending([{ voucher, reference: decided.reference }]);
    return { voucher, reference: decided.reference, journaledAt: this.now() };
  }

  /** The second half: send (unless settled already) and settle. */
  async finish(begun: Begun): Promise<VoucherResult> {
    if ("result" in begun) return begun.result;
    if (this.journalFault) {
      // Journaled `sending` before the journal failed, and not sent: held, if it can still be written.
      await this.abandon(begun, t("not sent: the journal cannot be written"));
      throw new ServiceStop(this.journalFault);
    }
    // Journaled ahead a while ago (the lane's previous voucher took long): the send time the
    // next run counts its settle window from must be the real one.
    if (this.now() - begun.journaledAt > 1000)
      await this.journalSending([{ voucher: begun.voucher, reference: begun.reference }]);
    return this.send(begun.voucher, begun.reference, 1);
  }

  /** A begun voucher that will not be sent after all: the journal says so. */
  async abandon(begun: Begun, why: string): Promise<void> {
    if ("reference" in begun)
      await this.record({ ref: begun.reference, state: "held", mode: this.settings.mode, errors: [why] });
  }

  private async journalSending(items: { voucher: PreparedVoucher; reference: string }[]): Promise<void> {
    // No promise to ask before sending again, no send: a journal that failed once stops the run.
    if (this.journalFault) throw new ServiceStop(this.journalFault);
    const sentAt = new Date(this.wall()).toISOString();
    const sentMono = this.now();
    await this.strictRecordAll(
      items.map(({ voucher, reference }) => {
        const c = voucher.envelope.comprobante;
        return {
          ref: reference,
          state: "sending" as const,
          mode: this.settings.mode,
          tipo: c.tipo,
          ...(c.punto_venta !== undefined ? { punto_venta: c.punto_venta } : {}),
          ...(c.total !== undefined ? { total: c.total } : {}),
          ...(c.fecha ? { fecha: c.fecha } : {}),
          source: voucher.source,
          digest: voucher.digest,
          sent_at: sentAt,
          sent_mono: sentMono,
          ...(this.boot !== undefined ? { boot: this.boot } : {}),
        };
      }),
    );
  }

  /**
   * Settled already (from the journal, or because the service holds the reference), or to be
   * sent under `reference`. Throws ServiceStop when the service cannot be asked.
   */
  private async decide(voucher: PreparedVoucher): Promise<{ result: VoucherResult } | { reference: string }> {
    let reference = voucher.reference;
    for (;;) {
      const entry = this.journal.get(reference);
      const duplicateWanted = this.settings.allowDuplicate;
      if (settledInJournal(entry)) {
        if (!duplicateWanted) {
          const numberless = (entry as JournalEntry).state === "issued" && (entry as JournalEntry).numero === undefined;
          // Issued, but its number never came back: the service knows it, and the documents need it.
          const found = numberless
            ? await this.lookup(reference, voucher.operacion).catch(ignoreLookupFailure)
            : undefined;
          if (found?.state === "issued") return { result: await this.settleFound(voucher, reference, found, false) };
          return { result: await this.fromJournal(voucher, entry as JournalEntry) };
        }
        reference = this.nextCandidate(voucher.reference, reference);
        continue;
      }
      let found: ServiceVoucher | undefined;
      try {
        found = await this.ask(reference, entry, voucher.operacion);
      } catch (error) {
        if (!(error instanceof LookupFailed)) throw error;
        if (inFlight(entry)) return { result: await this.unknown(voucher, reference, error.cause) };
        // Never sent, but the service cannot say whether another run or machine sent it.
        throw new ServiceStop(asFacturarError(error.cause));
      }
      if (!found) return { reference };
      if (duplicateWanted && found.state === "issued") {
        await this.recordFound(voucher, reference, found);
        reference = this.nextCandidate(voucher.reference, reference);
        continue;
      }
      return { result: await this.settleFound(voucher, reference, found, false) };
    }
  }

  /** `R-R2`, `R-R3`…: the next reference for a duplicate issued on purpose. */
  private nextCandidate(original: string, current: string): string {
    const n = current === original ? 2 : Number(/-R(\d+)$/.exec(current)?.[1] ?? 1) + 1;
    return `${original.slice(0, 250)}-R${n}`;
  }

  /**
   * What the service holds under a reference. A voucher that may be in flight (sent, no answer)
   * is asked about until the settle window after its send has passed.
   */
  private async ask(
    reference: string,
    entry: JournalEntry | undefined,
    operacion: Operacion,
  ): Promise<ServiceVoucher | undefined> {
    if (inFlight(entry)) {
      // Sent by an earlier run: its window counts from that send as the monotonic clock tells
      // it (a wall clock that stepped since cannot shorten it).
      const elapsed = sinceSent(entry as JournalEntry, this.now, this.boot);
      return this.awaitSettled(reference, this.now() - elapsed, operacion);
    }
    const listed = this.listed.get(reference);
    if (listed) return preferred(listed);
    return this.lookup(reference, operacion);
  }

  /** A purchase is looked up among purchases (`operacion: "C"`), a sale among sales. */
  private async lookup(reference: string, operacion: Operacion): Promise<ServiceVoucher | undefined> {
    try {
      const found = await this.service.findByReference(reference, operacion);
      const issued = found.filter((v) => v.state === "issued");
      if (issued.length > 1)
        this.warn(
          t("the service holds {n} issued vouchers under {ref} (sent twice before?); reporting the newest", {
            n: issued.length,
            ref: reference,
          }),
        );
      return preferred(found);
    } catch (error) {
      // A bug stays a bug; anything the service or the network did means "could not ask".
      if (!(error instanceof FacturarError || error instanceof TransportError)) throw error;
      throw new LookupFailed(error);
    }
  }

  /** Asks until the voucher shows up or the settle window after `since` has passed. */
  private async awaitSettled(
    reference: string,
    since: number,
    operacion: Operacion,
  ): Promise<ServiceVoucher | undefined> {
    let wait = 500;
    for (;;) {
      const found = await this.lookup(reference, operacion);
      if (found) return found;
      const left = since + this.settings.settleWindowMs - this.now();
      if (left <= 0) return undefined;
      await this.sleep(Math.min(wait, left));
      wait = Math.min(wait * 2, 10_000);
    }
  }

  /**
   * Several vouchers of one lane in one call: `lotes` (instant, up to 20 of one type, in date
   * order) or `lotes_encola` (queued, up to 100). Results come back in input order; once one of
   * them breaks the lane, the rest are held.
   */
  async issueBatch(vouchers: PreparedVoucher[]): Promise<VoucherResult[]> {
    const results: (VoucherResult | undefined)[] = [];
    try {
      return await this.issueBatchInto(vouchers, results);
    } catch (error) {
      // The service stopped the run midway: what was settled before is told as settled.
      if (error instanceof ServiceStop) error.settled = results;
      throw error;
    }
  }

  private async issueBatchInto(
    vouchers: PreparedVoucher[],
    results: (VoucherResult | undefined)[],
  ): Promise<VoucherResult[]> {
    const pending: Pending[] = [];
    for (const [index, voucher] of vouchers.entries()) {
      const decided = await this.decide(voucher);
      if ("result" in decided) results[index] = decided.result;
      else pending.push({ index, voucher, reference: decided.reference });
    }
    if (pending.length > 0) await this.sendGroup(pending, results);
    return results as VoucherResult[];
  }

  /** Sends vouchers of one lane, journaled `sending`, in one call (one alone through `issue`). */
  private async sendGroup(pending: Pending[], results: (VoucherResult | undefined)[]): Promise<void> {
    if (pending.length === 1) {
      const [only] = pending as [(typeof pending)[number]];
      await this.journalSending([only]);
      results[only.index] = await this.send(only.voucher, only.reference, 1);
      return;
    }
    if (pending.length === 0) return;
    await this.journalSending(pending);
    const since = this.now();
    let batch: BatchAnswer;
    try {
      batch = await this.service.issueBatch(
        this.settings.mode,
        pending.map((p) => this.wire(p.voucher, p.reference)),
      );
    } catch (error) {
      // A bug (not the service's word) leaves them `sending`: the next run asks the service.
      if (!(error instanceof TransportError) && !(error instanceof FacturarError)) throw error;
      if (error instanceof FacturarError && isServiceFailure(error)) {
        // Refused before anything was done (access, maintenance, the authority down).
        await this.notSent(
          pending.map((p) => p.reference),
          error,
        );
        throw new ServiceStop(error);
      }
      // A bad request (HTTP 400…) naming a row is that voucher's refusal; the others are asked about.
      const row = error instanceof FacturarError ? namedRow([error.message], pending.length) : undefined;
      if (row !== undefined) {
        await this.refusedRow(pending, row, since, results, async (bad) => {
          await this.notSent([bad.reference], error);
          return this.failed(bad.voucher, bad.reference, error);
        });
        return;
      }
      this.warn(
        t("batch of {n}: {message}; asking the service about each voucher", {
          n: pending.length,
          message: error.message,
        }),
      );
      await this.settleLost(pending, since, results);
      return;
    }
    if (batch.refusedRow !== undefined) {
      const item = batch.items[batch.refusedRow] as IssueAnswer;
      await this.refusedRow(pending, batch.refusedRow, since, results, (bad) =>
        this.settleAnswer(bad.voucher, bad.reference, item),
      );
      return;
    }
    /** The voucher whose failure stopped the batch: the ones after it say which. */
    let failed: string | undefined;
    for (const [i, p] of pending.entries()) {
      const item = batch.items[i] as IssueAnswer;
      if (!item.ok && item.unavailable) {
        // The authority went down midway: those before are settled; of this one and the rest,
        // what an item names issued is issued, the others were not.
        const rest = pending.slice(i);
        const refused: string[] = [];
        for (const [k, q] of rest.entries()) {
          const its = batch.items[i + k] as IssueAnswer;
          if (its.ok) results[q.index] = await this.settleAnswer(q.voucher, q.reference, its);
          else refused.push(q.reference);
        }
        await this.notSent(refused, item.unavailable);
        throw new ServiceStop(item.unavailable);
      }
      if (!item.ok && item.notProcessed) {
        const why = failed
          ? t("not processed by the service: {ref}, earlier in its batch, failed", { ref: failed })
          : t("not processed by the service: an earlier voucher of its batch failed");
        await this.record({ ref: p.reference, state: "held", mode: this.settings.mode, errors: [why] });
        const held = this.result(p.voucher, p.reference, "held");
        held.errors = [why];
        held.error_details = [{ code: NOT_PROCESSED, text: why }];
        results[p.index] = held;
      } else {
        if (!item.ok) failed ??= p.reference;
        results[p.index] = await this.settleAnswer(p.voucher, p.reference, item);
      }
    }
  }

  /**
   * Vouchers of a batch whose answer says nothing sure of them (lost, unreadable, partial): each
   * is asked about, in order, once the settle window after the send has passed. What the service
   * holds is settled; what it does not goes again, one by one, in order; behind one that does not
   * settle, nothing more is sent (the lane's order), and the journal says so.
   */
  private async settleLost(pending: Pending[], since: number, results: (VoucherResult | undefined)[]): Promise<void> {
    let breaker: VoucherResult | undefined;
    for (const [k, p] of pending.entries()) {
      let result: VoucherResult;
      try {
        const found = await this.awaitSettled(p.reference, since, p.voucher.operacion);
        result = found
          ? await this.settleFound(p.voucher, p.reference, found, true)
          : breaker
            ? await this.holdBehind(p.voucher, p.reference, breaker)
            : await this.send(p.voucher, p.reference, 2);
      } catch (lookupError) {
        if (lookupError instanceof ServiceStop) {
          // The service stopped the run. One refused on its own re-send is held (the journal
          // says so); the others went in the lost batch, and nobody can say now.
          for (const q of pending.slice(k))
            if (q !== p || inFlight(this.journal.get(q.reference)))
              results[q.index] = await this.unknown(q.voucher, q.reference, lookupError.reason);
          throw lookupError;
        }
        if (!(lookupError instanceof LookupFailed)) throw lookupError;
        result = await this.unknown(p.voucher, p.reference, lookupError.cause);
      }
      results[p.index] = result;
      if (!breaker && breaksLane(result)) breaker = result;
    }
  }

  /**
   * A batch refused for one row (§6.8 says nothing was processed; the answer names no other
   * voucher, so that is not taken on trust): that voucher is rejected with the service's words,
   * and the others are asked about before any is sent again. Behind a numbering or date error,
   * those after it are held (they would fail too; the next run asks about them).
   */
  private async refusedRow(
    pending: Pending[],
    row: number,
    since: number,
    results: (VoucherResult | undefined)[],
    refuse: (bad: Pending) => Promise<VoucherResult>,
  ): Promise<void> {
    const bad = pending[row] as Pending;
    const result = await refuse(bad);
    results[bad.index] = result;
    this.warn(
      t("batch of {n}: the service refused {ref}; asking it about the others before sending them again", {
        n: pending.length,
        ref: bad.reference,
      }),
    );
    if (laneBreak(result) !== "sequence") {
      await this.settleLost(
        pending.filter((p) => p !== bad),
        since,
        results,
      );
      return;
    }
    await this.settleLost(pending.slice(0, row), since, results);
    for (const q of pending.slice(row + 1))
      results[q.index] = await this.holdBehind(q.voucher, q.reference, result, "sequence");
  }

  /** The body the service gets: escaped texts, the reference, no credentials from the file. */
  private wire(voucher: PreparedVoucher, reference: string): Record<string, unknown> {
    const body = escapeEnvelope({
      ...voucher.envelope,
      comprobante: { ...voucher.envelope.comprobante, external_reference: reference },
    });
    const {
      $schema: _s,
      usertoken: _u,
      apikey: _k,
      apitoken: _t,
      [DEFAULTED]: _d,
      ...wire
    } = body as Envelope & Record<string, unknown>;
    return wire;
  }

  /** Sends a voucher journaled `sending`, and settles it. */
  private async send(voucher: PreparedVoucher, reference: string, attempt: number): Promise<VoucherResult> {
    if (attempt > 1) await this.journalSending([{ voucher, reference }]);
    const since = this.now();
    let answer: IssueAnswer;
    try {
      answer = await this.service.issue(this.settings.mode, this.wire(voucher, reference));
    } catch (error) {
      // A bug (not the service's word) leaves it `sending`: the next run asks the service.
      if (!(error instanceof TransportError) && !(error instanceof FacturarError)) throw error;
      if (!(error instanceof TransportError)) {
        // Refused before anything was done: nothing to reconcile.
        await this.notSent([reference], error);
        if (isServiceFailure(error)) throw new ServiceStop(error);
        return this.failed(voucher, reference, error as Error);
      }
      this.warn(
        t("{source}: {message}; asking the service whether {ref} was stored", {
          source: voucher.source,
          message: error.message,
          ref: reference,
        }),
      );
      let found: ServiceVoucher | undefined;
      try {
        found = await this.awaitSettled(reference, since, voucher.operacion);
      } catch (lookupError) {
        if (!(lookupError instanceof LookupFailed)) throw lookupError;
        return this.unknown(voucher, reference, lookupError.cause);
      }
      if (found) return this.settleFound(voucher, reference, found, true);
      if (attempt >= 3) {
        // Asked each time, past the settle window: the service holds nothing under this
        // reference. Known not issued; the next run sends it again.
        await this.record({
          ref: reference,
          state: "rejected",
          mode: this.settings.mode,
          errors: [error.message],
        });
        const result = this.result(voucher, reference, "rejected");
        result.errors = [error.message];
        result.error_details = [{ code: NO_ANSWER, text: error.message }];
        result.hint = t(
          "sent {n} times without an answer, and the service holds nothing under {ref}: not issued; run again later",
          { n: attempt, ref: reference },
        );
        return result;
      }
      return this.send(voucher, reference, attempt + 1);
    }
    return this.settleAnswer(voucher, reference, answer);
  }

  /** Nothing was done by the service: the journal must not say `sending`. */
  private async notSent(references: string[], error: unknown): Promise<void> {
    const message = (error as Error).message;
    const state = isServiceFailure(error) ? ("held" as const) : ("rejected" as const);
    await this.recordAll(references.map((ref) => ({ ref, state, mode: this.settings.mode, errors: [message] })));
  }

  /** A voucher the service refused as a bad request (HTTP 400…): that voucher's result. */
  private failed(voucher: PreparedVoucher, reference: string, error: Error): VoucherResult {
    const result = this.result(voucher, reference, "rejected");
    result.errors = [error.message];
    const code = error instanceof FacturarError ? error.code : "error";
    result.error_details = [{ code, text: error.message }];
    if (error instanceof FacturarError && error.hint) result.hint = error.hint;
    return result;
  }

  /** The service's answer to this run's own issuing call. */
  private async settleAnswer(voucher: PreparedVoucher, reference: string, answer: IssueAnswer): Promise<VoucherResult> {
    if (!answer.ok) {
      const result = this.result(voucher, reference, "rejected");
      result.errors = answer.errors;
      result.error_details = answer.details;
      result.hint = hintFor(result, answer.requiresFce);
      await this.record({ ref: reference, state: "rejected", mode: this.settings.mode, errors: result.errors });
      return result;
    }
    if (answer.state === "queued") {
      await this.record({ ref: reference, state: "queued", mode: "queued" });
      const queued = this.result(voucher, reference, "queued");
      if (answer.vencimiento_pago) queued.vencimiento_pago = answer.vencimiento_pago;
      return this.settings.wait ? this.follow(voucher, reference) : queued;
    }
    const c = voucher.envelope.comprobante;
    let result = this.result(voucher, reference, "issued");
    Object.assign(result, {
      comprobante_tipo: answer.comprobante_tipo ?? c.tipo,
      punto_venta: answer.punto_venta ?? c.punto_venta ?? null,
      numero: answer.numero,
      cae: answer.cae,
      vencimiento_cae: answer.vencimiento_cae,
      vencimiento_pago: answer.vencimiento_pago ?? c.vencimiento ?? null,
      qr: answer.qr,
    });
    if (answer.observations.length > 0) result.observations = answer.observations;
    let links = { pdf: answer.pdf_url, ticket: answer.ticket_url };
    if (answer.numero === null) {
      // Issued, but the answer gave no number: the service's own record has it.
      try {
        const found = await this.lookup(reference, voucher.operacion);
        if (found?.state === "issued") {
          result = this.fromService(voucher, reference, found, "issued");
          links = { pdf: found.pdf_url, ticket: found.ticket_url };
        }
      } catch {
        // Keep what the answer said; the PDF waits for a number.
      }
      if (result.numero === null)
        result.warnings = [
          ...(result.warnings ?? []),
          t(
            "issued, but the service gave no readable voucher number for {ref}: `facturar query --ref {ref}` tells it later",
            {
              ref: reference,
            },
          ),
        ];
    }
    finishNumber(result);
    await this.journalIssued(result, voucher);
    return this.withDocuments(result, links.pdf, links.ticket, false);
  }

  /**
   * A voucher the service holds under the reference: issued (this run's lost call, or an earlier
   * run's, machine's or profile's), queued, or failed in the queue.
   */
  private async settleFound(
    voucher: PreparedVoucher,
    reference: string,
    found: ServiceVoucher,
    sentNow: boolean,
    mayRequeue = true,
  ): Promise<VoucherResult> {
    const entry = this.journal.get(reference);
    if (found.state === "issued") {
      const result = this.fromService(voucher, reference, found, sentNow ? "issued" : "skipped-duplicate");
      result.reconciled = true;
      if (!sentNow) {
        result.hint = t("already issued (the service holds {ref}): not sent again", { ref: reference });
        this.noteDrift(result, voucher, entry, found);
      }
      const kept = entry?.pdf && existsSync(entry.pdf) ? entry : undefined;
      if (kept) {
        result.pdf = kept.pdf ?? null;
        result.ticket = kept.ticket && existsSync(kept.ticket) ? kept.ticket : null;
      }
      // What was sent is the digest's to remember, not a file that says something else now.
      await this.journalIssued(result, result.content_changed ? undefined : voucher);
      if (kept && result.ticket) return result;
      return this.withDocuments(result, found.pdf_url, found.ticket_url, !found.pdf_url);
    }
    if (found.state === "queued") {
      await this.record({
        ref: reference,
        state: "queued",
        mode: "queued",
        tipo: found.tipo || voucher.envelope.comprobante.tipo,
      });
      const result = this.fromService(voucher, reference, found, "queued");
      result.reconciled = true;
      if (!sentNow) {
        result.hint = t("already in the service's queue under {ref}: not sent again", { ref: reference });
        this.noteDrift(result, voucher, entry, found);
        // Another voucher waits under this reference: told, not followed as if it were this one.
        if (result.status === "conflict") return result;
      }
      return this.settings.wait ? this.follow(voucher, reference) : result;
    }
    if (!sentNow) {
      // Failed in the queue with other content than this file's: re-queued, it would issue that.
      const held = this.fromService(voucher, reference, found, "rejected");
      this.noteDrift(held, voucher, entry, found);
      if (held.status === "conflict") {
        await this.record({ ref: reference, state: "queue-error", mode: "queued", errors: found.errors });
        held.reconciled = true;
        return held;
      }
    }
    // Failed in the service's queue: it stays there until re-queued or deleted.
    if (this.settings.requeue && mayRequeue) {
      try {
        await this.service.requeue(reference);
      } catch (error) {
        if (isServiceFailure(error)) throw new ServiceStop(error);
        if (error instanceof TransportError) return this.unknown(voucher, reference, error);
        throw error;
      }
      await this.record({ ref: reference, state: "queued", mode: "queued" });
      const result = this.fromService(voucher, reference, found, "queued");
      result.reconciled = true;
      result.hint = t("re-queued {ref} (reenviar_encolado): it had failed in the queue", { ref: reference });
      return this.settings.wait ? this.follow(voucher, reference) : result;
    }
    await this.record({ ref: reference, state: "queue-error", mode: "queued", errors: found.errors });
    const result = this.fromService(voucher, reference, found, "rejected");
    result.reconciled = true;
    result.errors = found.errors;
    result.error_details = [{ code: "queue-error", text: found.errors.join("; ") }];
    result.hint = t(
      "the service's queue holds {ref} with an error; once its cause is fixed, `facturar issue-queued --requeue` (or `facturar queue retry --ref {ref}`) puts it back in the queue; to send a corrected voucher instead, `facturar queue delete --ref {ref}` first",
      { ref: reference },
    );
    return result;
  }

  /** Records what the service holds, without settling this voucher (a duplicate is wanted). */
  private async recordFound(voucher: PreparedVoucher, reference: string, found: ServiceVoucher): Promise<void> {
    const result = this.fromService(voucher, reference, found, "issued");
    await this.journalIssued(result, undefined);
  }

  /**
   * Same reference, other content: what the service holds is not what this file says now. As a
   * reused idempotency key with other parameters is (Stripe), a conflict: not ok, nothing sent,
   * and the result shows what was issued under the reference.
   */
  private noteDrift(
    result: VoucherResult,
    voucher: PreparedVoucher,
    entry: JournalEntry | undefined,
    found: ServiceVoucher | undefined,
  ): void {
    const c = voucher.envelope.comprobante;
    // Without the digest of what was sent (found at the service, journal lost), the service's own
    // figures are what can be compared: type and total.
    const held = found ? { tipo: found.tipo, total: found.total } : { tipo: entry?.tipo, total: entry?.total };
    const changed = entry?.digest
      ? entry.digest !== voucher.digest
      : (!!held.tipo && held.tipo !== c.tipo) ||
        (!!held.total && c.total !== undefined && Number(held.total) !== Number(c.total));
    if (!changed) return;
    const message = t("{ref} was used before for another voucher ({held}); nothing sent: this sale is not invoiced", {
      ref: result.external_reference,
      held: [held.tipo, result.comprobante_nro, held.total && Dec.tryParse(held.total)?.toFixed(2)]
        .filter(Boolean)
        .join(" "),
    });
    result.status = "conflict";
    result.ok = false;
    result.content_changed = true;
    // Placed as validation errors are: the voucher's own source first.
    result.errors = [`${voucher.source}: ${message}`];
    result.error_details = [
      { code: "reference.reused", text: message, field: "comprobante.external_reference", place: voucher.source },
    ];
    result.hint = t(
      "give the new voucher its own external_reference; if it is the same sale corrected, issue a credit note for the old one first (`facturar credit-note --ref {ref}`)",
      { ref: result.external_reference },
    );
  }

  /** Queued mode with --wait: polls by reference until issued, failed, gone, or the timeout. */
  private async follow(voucher: PreparedVoucher, reference: string): Promise<VoucherResult> {
    const deadline = this.now() + this.settings.waitTimeoutMs;
    const unfollowed = (cause: Error) => {
      const still = this.result(voucher, reference, "queued");
      still.warnings = [t("could not follow it: {message}", { message: cause.message })];
      return still;
    };
    // The service could not be asked about one: the others are not asked again (each would wait as long).
    if (this.followFault) return unfollowed(this.followFault);
    for (;;) {
      let found: ServiceVoucher | undefined;
      try {
        found = await this.lookup(reference, voucher.operacion);
      } catch (error) {
        if (!(error instanceof LookupFailed)) throw error;
        this.followFault ??= error.cause;
        return unfollowed(error.cause);
      }
      if (!found) {
        await this.record({ ref: reference, state: "deleted", mode: "queued" });
        const gone = this.result(voucher, reference, "rejected");
        gone.errors = [t("{ref} is no longer in the service's queue (deleted?)", { ref: reference })];
        gone.hint = t("run again to send it anew");
        return gone;
      }
      if (found.state === "issued") {
        const result = this.fromService(voucher, reference, found, "issued");
        await this.journalIssued(result, voucher);
        return this.withDocuments(result, found.pdf_url, found.ticket_url, !found.pdf_url);
      }
      // Failed in the queue while followed: reported (re-queued once at most per run, not in a loop).
      if (found.state === "queue-error") return this.settleFound(voucher, reference, found, true, false);
      if (this.now() >= deadline) {
        const still = this.fromService(voucher, reference, found, "queued");
        still.warnings = [
          t("still queued after {seconds} s", { seconds: Math.round(this.settings.waitTimeoutMs / 1000) }),
        ];
        return still;
      }
      await this.sleep(this.settings.pollMs ?? 500);
    }
  }

  /** Journal-settled: reported with what was issued, its PDF fetched again if it went missing. */
  private async fromJournal(voucher: PreparedVoucher, entry: JournalEntry): Promise<VoucherResult> {
    const result = this.result(voucher, entry.ref, "skipped-duplicate");
    Object.assign(result, {
      comprobante_tipo: entry.tipo ?? result.comprobante_tipo,
      punto_venta: entry.punto_venta ?? result.punto_venta,
      numero: entry.numero ?? null,
      cae: entry.cae ?? null,
      vencimiento_cae: entry.vencimiento_cae ?? null,
      vencimiento_pago: entry.vencimiento_pago ?? result.vencimiento_pago,
      total: entry.total ?? result.total,
      pdf: entry.pdf ?? null,
      ticket: entry.ticket ?? null,
    });
    if (entry.observations?.length) result.observations = entry.observations;
    finishNumber(result);
    result.hint = t("already issued (journal): not sent again; --allow-duplicate issues another on purpose");
    this.noteDrift(result, voucher, entry, undefined);
    const missing = entry.documents_missing || !result.pdf || !existsSync(result.pdf);
    return this.settings.savePdf && missing ? this.withDocuments(result, undefined, undefined, true) : result;
  }

  private async journalIssued(result: VoucherResult, voucher: PreparedVoucher | undefined): Promise<void> {
    await this.record({
      ref: result.external_reference,
      state: "issued",
      mode: this.settings.mode,
      ...(result.comprobante_tipo ? { tipo: result.comprobante_tipo } : {}),
      ...(result.punto_venta !== null ? { punto_venta: result.punto_venta } : {}),
      ...(result.numero !== null ? { numero: result.numero } : {}),
      ...(result.comprobante_nro ? { comprobante_nro: result.comprobante_nro } : {}),
      // The lane's latest date: a later run refuses an earlier one before sending (date.order).
      ...(voucher ? { fecha: voucher.envelope.comprobante.fecha } : {}),
      ...(voucher?.operacion === "C" ? { operacion: "C" as const } : {}),
      ...(result.cae ? { cae: result.cae } : {}),
      ...(result.vencimiento_cae ? { vencimiento_cae: result.vencimiento_cae } : {}),
      ...(result.vencimiento_pago ? { vencimiento_pago: result.vencimiento_pago } : {}),
      ...(result.total ? { total: result.total } : {}),
      ...(result.observations ? { observations: result.observations } : {}),
      ...(voucher && !this.journal.get(result.external_reference)?.digest ? { digest: voucher.digest } : {}),
    });
  }

  /**
   * The result with its documents saved; with `deferDocuments`, the result at once and the
   * download left running, for the lane to collect with takeDownload() while it goes on.
   */
  private withDocuments(
    result: VoucherResult,
    pdfUrl: string | null | undefined,
    ticketUrl: string | null | undefined,
    refetch: boolean,
  ): Promise<VoucherResult> {
    if (!this.settings.savePdf) return Promise.resolve(result);
    const saving = this.saveDocuments(result, pdfUrl ?? null, ticketUrl ?? null, refetch);
    if (!this.settings.deferDocuments) return saving;
    this.downloads.set(result.external_reference, saving);
    return Promise.resolve(result);
  }

  /**
   * Documents an earlier run could not save (journaled `documents_missing`), fetched again into
   * the folder that run meant: at most `limit` per run, none of `skip` (this run's own vouchers).
   */
  async fetchMissing(skip: Set<string>, limit = 50): Promise<VoucherResult[]> {
    const missing = this.journal
      .withMissingDocuments()
      .filter((e) => !skip.has(e.ref))
      .slice(0, limit);
    const results: VoucherResult[] = [];
    for (const entry of missing) {
      const result = blankResult("skipped-duplicate", {
        source: entry.source ?? entry.ref,
        reference: entry.ref,
        tipo: entry.tipo ?? null,
        punto_venta: entry.punto_venta ?? null,
        total: entry.total ?? null,
      });
      result.numero = entry.numero ?? null;
      finishNumber(result);
      results.push(await this.saveDocuments(result, null, null, true, entry.out_dir));
    }
    return results;
  }

  /** The download still running for a result withDocuments() returned early, if any. */
  takeDownload(reference: string): Promise<VoucherResult> | undefined {
    const download = this.downloads.get(reference);
    this.downloads.delete(reference);
    return download;
  }

  /**
   * Saves the PDF and the ticket at once: their links die the same day. `refetch`: no links at
   * hand (an earlier run's voucher), so both come from fresh ones. A document that cannot be
   * saved is journaled as missing, and the next run fetches it.
   */
  private async saveDocuments(
    result: VoucherResult,
    pdfUrl: string | null,
    ticketUrl: string | null,
    refetch: boolean,
    outDir = this.settings.outDir,
  ): Promise<VoucherResult> {
    const { comprobante_tipo: tipo, punto_venta: puntoVenta, numero } = result;
    let missing = false;
    if (numero === null || puntoVenta === null || !tipo) {
      result.warnings = [...(result.warnings ?? []), t("PDF not saved: the answer gave no usable voucher number")];
      missing = true;
    } else {
      let fresh: Promise<{ pdf: string | null; ticket: string | null }> | undefined;
      const freshLinks = () => {
        fresh ??= this.service.freshLinks(tipo, puntoVenta, numero);
        return fresh;
      };
      const save = async (kind: "pdf" | "ticket", url: string | null): Promise<string | null> => {
        const name = `${documentName(tipo, puntoVenta, numero, kind === "ticket" ? "-ticket" : "")}.pdf`;
        try {
          return await saveDocument(this.service, outDir, name, url, async () => (await freshLinks())[kind]);
        } catch (error) {
          if (error instanceof NoDocument) return null;
          missing = true;
          result.warnings = [
            ...(result.warnings ?? []),
            kind === "pdf"
              ? t("PDF not saved: {message}", { message: (error as Error).message })
              : t("ticket not saved: {message}", { message: (error as Error).message }),
          ];
          return null;
        }
      };
      const [pdf, ticket] = await Promise.all([
        save("pdf", pdfUrl),
        ticketUrl || refetch ? save("ticket", ticketUrl) : Promise.resolve(result.ticket ?? null),
      ]);
      result.pdf = pdf;
      result.ticket = ticket;
      if (!pdf) missing = true;
    }
    if (missing) {
      result.documents_missing = true;
      result.hint ??= t("issued, but its documents were not saved: the next run fetches them");
    }
    await this.record({
      ref: result.external_reference,
      state: "issued",
      mode: this.settings.mode,
      pdf: result.pdf,
      ticket: result.ticket,
      documents_missing: missing,
      out_dir: outDir,
    });
    return result;
  }

  private async unknown(voucher: PreparedVoucher, reference: string, cause: Error): Promise<VoucherResult> {
    const message = t("could not ask the service about {ref}: {message}", { ref: reference, message: cause.message });
    await this.record({ ref: reference, state: "unknown", mode: this.settings.mode, errors: [message] });
    const result = this.result(voucher, reference, "unknown");
    result.errors = [message];
    result.hint = t(
      "sent, but no answer came back and the service could not be asked; `facturar journal --reconcile` settles it later",
    );
    return result;
  }

  /** A voucher behind one that broke its lane inside the same batch. */
  private async holdBehind(
    voucher: PreparedVoucher,
    reference: string,
    breaker: VoucherResult,
    cause: "sequence" | "unsettled" = "unsettled",
  ): Promise<VoucherResult> {
    const why =
      cause === "sequence"
        ? t("not sent: {ref} failed in this lane with a numbering or date error, and this one would too", {
            ref: breaker.external_reference,
          })
        : t(
            "not sent: {ref}, earlier in this lane, is not settled; sending this one first would break the lane's order",
            { ref: breaker.external_reference },
          );
    await this.record({ ref: reference, state: "held", mode: this.settings.mode, errors: [why] });
    const held = this.result(voucher, reference, "held");
    held.errors = [why];
    return held;
  }

  private fromService(
    voucher: PreparedVoucher,
    reference: string,
    found: ServiceVoucher,
    status: VoucherResult["status"],
  ): VoucherResult {
    const result = this.result(voucher, reference, status);
    Object.assign(result, {
      comprobante_tipo: found.tipo || result.comprobante_tipo,
      punto_venta: found.punto_venta ?? result.punto_venta,
      numero: found.numero,
      cae: found.cae,
      vencimiento_cae: found.vencimiento_cae,
      vencimiento_pago: found.vencimiento_pago ?? result.vencimiento_pago,
      total: found.total ?? result.total,
      qr: found.qr,
    });
    if (found.observations.length > 0) result.observations = found.observations;
    finishNumber(result);
    return result;
  }

  private result(voucher: PreparedVoucher, reference: string, status: VoucherResult["status"]): VoucherResult {
    const c = voucher.envelope.comprobante;
    const result = blankResult(status, {
      source: voucher.source,
      reference,
      tipo: c.tipo ?? null,
      punto_venta: c.punto_venta ?? null,
      total: c.total ?? null,
    });
    result.vencimiento_pago = c.vencimiento ?? null;
    return result;
  }
}

function asFacturarError(error: Error): FacturarError {
  if (error instanceof FacturarError) return error;
  return new FacturarError(error.message, "unavailable", "service.unavailable");
}

/** `00679-00000012` once issued with a number. */
function finishNumber(result: VoucherResult): void {
  const issued = result.status === "issued" || result.status === "skipped-duplicate";
  result.comprobante_nro =
    issued && result.punto_venta !== null && result.numero !== null
      ? voucherNumber(result.punto_venta, result.numero)
      : null;
}

/**
 * Why the rest of a lane must wait, if it must. A numbering or date error: the rest would fail
 * too. An outcome not known, a voucher sent without ever an answer, or one not processed: it may
 * still be issued later, and the authority numbers a lane in order and refuses a date earlier
 * than the last voucher's, so nothing after it may go first.
 */
export function laneBreak(result: VoucherResult): "sequence" | "unsettled" | undefined {
  if (result.status === "unknown" || result.status === "held") return "unsettled";
  if (result.status !== "rejected") return undefined;
  if (result.error_details.some((d) => d.code === NO_ANSWER)) return "unsettled";
  const codes = result.error_details.map((d) => d.code);
  return refusalCauses(result.errors, codes).has("sequence") ? "sequence" : undefined;
}

function breaksLane(result: VoucherResult): boolean {
  return laneBreak(result) !== undefined;
}

function hintFor(result: VoucherResult, requiresFce: boolean): string | undefined {
  const causes = refusalCauses(
    result.errors,
    result.error_details.map((d) => d.code),
    requiresFce,
  );
  if (causes.has("requires-fce"))
    return t(
      "this buyer must receive a MiPyME credit invoice: issue it as FACTURA DE CREDITO ELECTRONICA MiPyME (FCE)",
    );
  if (causes.has("vat-condition"))
    return t(
      "the customer's condicion_iva does not fit this voucher type (a registered taxpayer gets class A; consumers and exempt customers class B)",
    );
  if (causes.has("queue-blocked"))
    return t("this point of sale has queued vouchers: use `facturar issue-queued` until they are processed");
  if (causes.has("next-number")) return t("leave numero out: the service assigns the next number itself");
  return undefined;
}
