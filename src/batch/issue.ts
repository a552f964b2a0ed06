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
import { refusedForItsBody } from "../api/client.js";
import { TransportError } from "../api/http.js";
import {
  type BatchAnswer,
  type IssueAnswer,
  type IssueMode,
  namedRow,
  placeBatchRow,
  preferred,
  type Service,
  WebhookRequiredError,
} from "../api/protocol.js";
import { currentBoot } from "../durable/lock.js";
import { FacturarError, textOf, WordedError } from "../errors.js";
import { english, type Message, msg, type Text } from "../i18n/message.js";
import { documentName } from "../voucher/codes.js";
import type { Operacion, ServiceVoucher } from "../voucher/held.js";
import type { Envelope } from "../voucher/schema.js";
import { escapeEnvelope } from "../voucher/text.js";
import { DEFAULTED, defaultedFields } from "../voucher/validate.js";
import { DOWNLOADS_AT_ONCE, NoDocument, Slots, saveDocument } from "./documents.js";
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
import {
  finishNumber,
  heldBehindWhy,
  type Issued,
  type LaneBreak,
  laneBreak,
  type Outcome,
  reusedReference,
  settle as settleOutcome,
} from "./outcome.js";
import { blankResult, TEXT_ERROR_CODE, type VoucherResult } from "./result.js";

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

/**
 * A refusal the service told by the voucher's row in the batch (`Fila 6 (comenzando en 0)`)
 * told by its place in the user's input instead (`nightly.csv:rows 81-82`), which is where the
 * user can look; the journal keeps the service's words as they came.
 */
function inItsPlace(result: VoucherResult, source: string): VoucherResult {
  // The service's words are strings; our own messages name no batch row.
  const placed = (text: Text): Text => (typeof text === "string" ? placeBatchRow(text, source) : text);
  const details = result.error_details.map((d) => {
    const text = placed(d.text);
    return text === d.text ? d : { ...d, text, place: source };
  });
  const errors = result.errors.map(placed);
  // A text the service gave without a code: its place is said in an error object of its own.
  for (const [i, e] of errors.entries())
    if (e !== result.errors[i] && !details.some((d) => english(e).includes(english(d.text))))
      details.push({ code: TEXT_ERROR_CODE[result.status], text: e, field: null, place: source });
  return { ...result, errors, error_details: details };
}

/**
 * A failure that is the service's, not one voucher's: it stops the run. Whether a request is
 * retried, and whether a write's failure is a lost answer, is the client's one policy
 * (api/client.ts, `retryable` and `lostAnswer`): what reaches here was not retried and did nothing.
 * This only tells whose it is.
 */
export function isServiceFailure(error: unknown): error is FacturarError {
  if (!(error instanceof FacturarError)) return false;
  if (error.outcome === "denied" || error.outcome === "unavailable") return true;
  // The point of sale takes no queued voucher at all: every other would be refused alike.
  if (error instanceof WebhookRequiredError) return true;
  // A refusal of the request's body is that voucher's; any other HTTP status would be every voucher's.
  return error.code.startsWith("http.") && !refusedForItsBody(error);
}

/** Could not ask the service about a reference (after retries). */
class LookupFailed extends WordedError {
  constructor(override readonly cause: Error) {
    super(textOf(cause));
  }
}

/** A lookup that only adds to what is known: if the service cannot be asked, nothing is learnt. */
function ignoreLookupFailure(error: unknown): undefined {
  if (error instanceof LookupFailed) return undefined;
  throw error;
}

export class Issuer {
  private readonly downloads = new Map<string, Promise<VoucherResult>>();
  /** Every document download of the run goes through these, a few at a time (see DOWNLOADS_AT_ONCE). */
  private readonly downloadSlots = new Slots(DOWNLOADS_AT_ONCE);
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
    private readonly warn: (line: Text) => void,
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

  /**
   * A voucher's outcome, settled (see outcome.ts): journaled, and its result returned.
   * `documentsNext`: an issued voucher whose documents are fetched next (withDocuments).
   */
  private async settle(
    voucher: PreparedVoucher,
    reference: string,
    outcome: Outcome,
    documentsNext = false,
  ): Promise<VoucherResult> {
    const [result] = await this.settleAll([[voucher, reference, outcome]], documentsNext);
    return result as VoucherResult;
  }

  /** Several outcomes, journaled at once (one write for a batch's). */
  private async settleAll(
    items: [PreparedVoucher, string, Outcome][],
    documentsNext = false,
  ): Promise<VoucherResult[]> {
    const settled = items.map(([voucher, reference, outcome]) =>
      settleOutcome(voucher, reference, outcome, { mode: this.settings.mode, journaled: this.journal.get(reference) }),
    );
    const entries = settled.flatMap((s) => (s.entry ? [this.awaitingDocuments(s.entry, documentsNext)] : []));
    if (entries.length > 0) await this.recordAll(entries);
    return settled.map((s) => s.result);
  }

  /**
   * An issued voucher's entry says its documents are missing until saveDocuments records them
   * saved: downloads go on beside the lanes, and a run that dies before they land leaves them
   * journaled missing, for the next run to fetch whatever its input (fetchMissing).
   */
  private awaitingDocuments(entry: Omit<JournalEntry, "at">, documentsNext: boolean): Omit<JournalEntry, "at"> {
    if (!documentsNext || !this.settings.savePdf || entry.state !== "issued") return entry;
    return { ...entry, documents_missing: true, out_dir: this.settings.outDir };
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
          msg("could not list the vouchers of {fecha} ({message}); asking about each voucher instead", {
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
      await this.abandon(begun, msg("not sent: the journal cannot be written"));
      throw new ServiceStop(this.journalFault);
    }
    // Journaled ahead a while ago (the lane's previous voucher took long): the send time the
    // next run counts its settle window from must be the real one.
    if (this.now() - begun.journaledAt > 1000)
      await this.journalSending([{ voucher: begun.voucher, reference: begun.reference }]);
    return this.send(begun.voucher, begun.reference, 1);
  }

  /** A begun voucher that will not be sent after all: the journal says so. */
  async abandon(begun: Begun, why: Text): Promise<void> {
    if ("reference" in begun) await this.settle(begun.voucher, begun.reference, { kind: "held", why });
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
        await this.settle(voucher, reference, { kind: "issued", by: "superseded", issued: found });
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
          msg("the service holds {n} issued vouchers under {ref} (sent twice before?); reporting the newest", {
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

  /**
   * Asks until the voucher shows up or the settle window after `since` has passed. This polls the
   * service while it may still be storing a voucher; it is no retry of a request: each lookup is a
   * read, retried by the client on its own failures (a 5xx, a 429, the network), and one that fails
   * for good ends the wait (LookupFailed).
   */
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
        await this.notSent(pending, error);
        throw new ServiceStop(error);
      }
      // A bad request (HTTP 400…) naming a row is that voucher's refusal; the others are asked about.
      const row = error instanceof FacturarError ? namedRow([error.message], pending.length) : undefined;
      if (row !== undefined) {
        await this.refusedRow(pending, row, since, results, async (bad) =>
          this.settle(bad.voucher, bad.reference, { kind: "bad-request", error }),
        );
        return;
      }
      this.warn(
        msg("batch of {n}: {message}; asking the service about each voucher", {
          n: pending.length,
          message: textOf(error),
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
        const refused: Pending[] = [];
        for (const [k, q] of rest.entries()) {
          const its = batch.items[i + k] as IssueAnswer;
          if (its.ok) results[q.index] = await this.settleAnswer(q.voucher, q.reference, its);
          else refused.push(q);
        }
        await this.notSent(refused, item.unavailable);
        throw new ServiceStop(item.unavailable);
      }
      if (!item.ok && item.notProcessed) {
        const why = failed
          ? msg("not processed by the service: {ref}, earlier in its batch, failed", { ref: failed })
          : msg("not processed by the service: an earlier voucher of its batch failed");
        results[p.index] = await this.settle(p.voucher, p.reference, { kind: "held", why, notProcessed: true });
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
      if (!breaker && laneBreak(result)) breaker = result;
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
    const result = inItsPlace(await refuse(bad), bad.voucher.source);
    results[bad.index] = result;
    this.warn(
      msg("batch of {n}: the service refused {ref}; asking it about the others before sending them again", {
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

  /**
   * Sends a voucher journaled `sending`, and settles it. The issuing call is the client's write
   * (api/client.ts `request`): retried there only on a 429, and a failure after which the voucher
   * may be stored comes out as TransportError (a lost answer). Sending it again here is no retry
   * of that request: it happens only once the service, asked past the settle window, holds
   * nothing under the reference (at most 3 sends).
   */
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
        if (isServiceFailure(error)) {
          await this.notSent([{ voucher, reference }], error);
          throw new ServiceStop(error);
        }
        return this.settle(voucher, reference, { kind: "bad-request", error });
      }
      this.warn(
        msg("{source}: {message}; asking the service whether {ref} was stored", {
          source: voucher.source,
          message: textOf(error),
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
        return this.settle(voucher, reference, { kind: "no-answer", attempts: attempt, message: textOf(error) });
      }
      return this.send(voucher, reference, attempt + 1);
    }
    return this.settleAnswer(voucher, reference, answer);
  }

  /** The service refused to work at all, before doing anything: these were not sent (held). */
  private async notSent(items: { voucher: PreparedVoucher; reference: string }[], error: Error): Promise<void> {
    await this.settleAll(
      items.map(({ voucher, reference }) => [voucher, reference, { kind: "held", why: textOf(error) }]),
    );
  }

  /** The service's answer to this run's own issuing call, which names the voucher. */
  private async settleAnswer(voucher: PreparedVoucher, reference: string, answer: IssueAnswer): Promise<VoucherResult> {
    if (!answer.ok)
      return this.settle(voucher, reference, {
        kind: "refused",
        errors: answer.errors,
        details: answer.details,
        requiresFce: answer.requiresFce,
      });
    if (answer.state === "queued") {
      const queued = await this.settle(voucher, reference, {
        kind: "queued",
        by: "answer",
        vencimiento_pago: answer.vencimiento_pago,
      });
      return this.settings.wait ? this.follow(voucher, reference) : queued;
    }
    let issued: Issued = { ...answer, tipo: answer.comprobante_tipo, total: null };
    let links = { pdf: answer.pdf_url, ticket: answer.ticket_url };
    const warnings: Text[] = [];
    if (answer.numero === null) {
      // Issued, but the answer gave no number: the service's own record has it.
      try {
        const found = await this.lookup(reference, voucher.operacion);
        if (found?.state === "issued") {
          issued = found;
          links = { pdf: found.pdf_url, ticket: found.ticket_url };
        }
      } catch {
        // Keep what the answer said; the PDF waits for a number.
      }
      if (issued.numero === null)
        warnings.push(
          msg(
            "issued, but the service gave no readable voucher number for {ref}: `facturar query --ref {ref}` tells it later",
            { ref: reference },
          ),
        );
    }
    const result = await this.settle(voucher, reference, { kind: "issued", by: "answer", issued, warnings }, true);
    return this.withDocuments(result, links.pdf, links.ticket, false);
  }

  /**
   * A voucher the service holds under the reference: issued (this run's lost call, or an earlier
   * run's, machine's or profile's), queued, or failed in the queue. `sentNow`: this run sent it.
   */
  private async settleFound(
    voucher: PreparedVoucher,
    reference: string,
    found: ServiceVoucher,
    sentNow: boolean,
    mayRequeue = true,
  ): Promise<VoucherResult> {
    const by = sentNow ? "lookup" : "found";
    const journaled = this.journal.get(reference);
    if (found.state === "issued") {
      const kept = journaled?.pdf && existsSync(journaled.pdf) ? journaled : undefined;
      const keptTicket = kept?.ticket && existsSync(kept.ticket) ? kept.ticket : null;
      const result = await this.settle(voucher, reference, { kind: "issued", by, issued: found }, !keptTicket);
      if (kept) {
        result.pdf = kept.pdf ?? null;
        result.ticket = keptTicket;
        if (result.ticket) return result;
      }
      return this.withDocuments(result, found.pdf_url, found.ticket_url, !found.pdf_url);
    }
    if (found.state === "queued") {
      const result = await this.settle(voucher, reference, { kind: "queued", by, found });
      // Another voucher waits under this reference: told, not followed as if it were this one.
      if (result.status === "conflict") return result;
      return this.settings.wait ? this.follow(voucher, reference) : result;
    }
    // Failed in the service's queue: it stays there until re-queued or deleted. Re-queued only
    // when it is this voucher: with other content, re-queued, it would issue that one.
    const ours = sentNow || !reusedReference(voucher, journaled, found);
    if (this.settings.requeue && mayRequeue && ours) {
      try {
        await this.service.requeue(reference);
      } catch (error) {
        if (isServiceFailure(error)) throw new ServiceStop(error);
        if (error instanceof TransportError) return this.unknown(voucher, reference, error);
        throw error;
      }
      const result = await this.settle(voucher, reference, { kind: "queued", by: "requeued", found });
      return this.settings.wait ? this.follow(voucher, reference) : result;
    }
    return this.settle(voucher, reference, { kind: "queue-error", by, found });
  }

  /** Queued mode with --wait: polls by reference until issued, failed, gone, or the timeout. */
  private async follow(voucher: PreparedVoucher, reference: string): Promise<VoucherResult> {
    const deadline = this.now() + this.settings.waitTimeoutMs;
    const unfollowed = (cause: Error) =>
      this.settle(voucher, reference, {
        kind: "queued",
        by: "still",
        warning: msg("could not follow it: {message}", { message: textOf(cause) }),
      });
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
      if (!found) return this.settle(voucher, reference, { kind: "deleted" });
      if (found.state === "issued") {
        const result = await this.settle(voucher, reference, { kind: "issued", by: "followed", issued: found }, true);
        return this.withDocuments(result, found.pdf_url, found.ticket_url, !found.pdf_url);
      }
      // Failed in the queue while followed: reported (re-queued once at most per run, not in a loop).
      if (found.state === "queue-error") return this.settleFound(voucher, reference, found, true, false);
      if (this.now() >= deadline)
        return this.settle(voucher, reference, {
          kind: "queued",
          by: "still",
          found,
          warning: msg("still queued after {seconds} s", { seconds: Math.round(this.settings.waitTimeoutMs / 1000) }),
        });
      await this.sleep(this.settings.pollMs ?? 500);
    }
  }

  /** Journal-settled: reported with what was issued, its PDF fetched again if it went missing. */
  private async fromJournal(voucher: PreparedVoucher, entry: JournalEntry): Promise<VoucherResult> {
    const result = await this.settle(voucher, entry.ref, { kind: "journaled", entry });
    const missing = entry.documents_missing || !result.pdf || !existsSync(result.pdf);
    return this.settings.savePdf && missing ? this.withDocuments(result, undefined, undefined, true) : result;
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
   * the folder that run meant: at most `limit` per run (more than a run killed midway leaves
   * awaiting documents: RESULTS_AWAITING_DOCUMENTS in lanes.ts), none of `skip` (this run's own).
   */
  async fetchMissing(skip: Set<string>, limit = 100): Promise<VoucherResult[]> {
    const missing = this.journal
      .withMissingDocuments()
      .filter((e) => !skip.has(e.ref))
      .slice(0, limit);
    // Side by side, through the run's few download slots (each fetch asks for fresh links first).
    return Promise.all(
      missing.map((entry) => {
        const result = blankResult("skipped-duplicate", {
          source: entry.source ?? entry.ref,
          reference: entry.ref,
          tipo: entry.tipo ?? null,
          punto_venta: entry.punto_venta ?? null,
          total: entry.total ?? null,
        });
        result.numero = entry.numero ?? null;
        finishNumber(result);
        return this.saveDocuments(result, null, null, true, entry.out_dir);
      }),
    );
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
      result.warnings = [...(result.warnings ?? []), msg("PDF not saved: the answer gave no usable voucher number")];
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
          return await this.downloadSlots.run(() =>
            saveDocument(this.service, outDir, name, url, async () => (await freshLinks())[kind]),
          );
        } catch (error) {
          if (error instanceof NoDocument) {
            // A voucher without a ticket is common; one without a PDF is missing it, and says why.
            if (kind === "pdf") failed.pdf = msg("PDF not saved: the service gives no link to it yet");
            return null;
          }
          missing = true;
          failed[kind] =
            kind === "pdf"
              ? msg("PDF not saved: {message}", { message: textOf(error) })
              : msg("ticket not saved: {message}", { message: textOf(error) });
          return null;
        }
      };
      // Both are saved at once; what went wrong is told PDF first, whichever failed first.
      const failed: { pdf?: Message; ticket?: Message } = {};
      const [pdf, ticket] = await Promise.all([
        save("pdf", pdfUrl),
        ticketUrl || refetch ? save("ticket", ticketUrl) : Promise.resolve(result.ticket ?? null),
      ]);
      for (const why of [failed.pdf, failed.ticket]) if (why) result.warnings = [...(result.warnings ?? []), why];
      result.pdf = pdf;
      result.ticket = ticket;
      if (!pdf) missing = true;
    }
    if (missing) {
      result.documents_missing = true;
      result.hint ??= msg("issued, but its documents were not saved: the next run fetches them");
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

  private unknown(voucher: PreparedVoucher, reference: string, cause: Error): Promise<VoucherResult> {
    return this.settle(voucher, reference, { kind: "unknown", cause });
  }

  /** A voucher behind one that broke its lane inside the same batch. */
  private holdBehind(
    voucher: PreparedVoucher,
    reference: string,
    breaker: VoucherResult,
    cause: LaneBreak = "unsettled",
  ): Promise<VoucherResult> {
    return this.settle(voucher, reference, { kind: "held", why: heldBehindWhy(breaker.external_reference, cause) });
  }
}

function asFacturarError(error: Error): FacturarError {
  if (error instanceof FacturarError) return error;
  return new FacturarError(textOf(error), "unavailable", "service.unavailable");
}
