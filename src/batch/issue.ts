/**
 * Issuing with exactly-once semantics: every voucher carries an external_reference (derived from
 * its content when the input has none), the journal records `sending` (fsynced) before the call,
 * an issuing call that fails without an answer is reconciled by reference before anything is sent
 * again, and a reference the journal already holds as issued is skipped.
 */

import { existsSync } from "node:fs";
import { type Answer, type ApiClient, parseVoucherNumber } from "../api/client.js";
import { TransportError } from "../api/http.js";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { documentName, writeSafely } from "../output/files.js";
import { voucherNumber } from "../voucher/codes.js";
import type { Envelope } from "../voucher/schema.js";
import { escapeEnvelope } from "../voucher/text.js";
import { derivedReference, type Journal, type JournalEntry } from "./journal.js";

/** `held`: not sent, because an earlier voucher of its lane broke the sequence or a stop was asked. */
export type VoucherStatus = "issued" | "queued" | "skipped-duplicate" | "rejected" | "invalid" | "unknown" | "held";

/** One voucher's outcome, with at least the fields design.md lists for JSON output. */
export interface VoucherResult {
  ok: boolean;
  status: VoucherStatus;
  source: string;
  external_reference: string;
  comprobante_tipo: string | null;
  punto_venta: number | null;
  numero: number | null;
  comprobante_nro: string | null;
  cae: string | null;
  vencimiento_cae: string | null;
  vencimiento_pago: string | null;
  total: string | null;
  qr: string | null;
  pdf: string | null;
  ticket: string | null;
  errors: string[];
  error_details: { code: string; text: string }[];
  /** Settled by asking the service after a lost answer, or from an earlier run. */
  reconciled?: boolean;
  hint?: string;
  warnings?: string[];
}

/** A voucher after `begin`: settled already (`result`), or journaled as sending under `reference`. */
export type Begun =
  | { voucher: PreparedVoucher; result: VoucherResult }
  | { voucher: PreparedVoucher; reference: string };

export interface PreparedVoucher {
  source: string;
  /** The normalised envelope, before escaping. */
  envelope: Envelope;
  reference: string;
}

export interface IssueSettings {
  mode: "instant" | "queued";
  /** Send again a reference the journal holds as issued (with a new reference). */
  allowDuplicate: boolean;
  savePdf: boolean;
  /** Lanes go on to their next voucher while documents download (see takeDownload). */
  deferDocuments?: boolean;
  outDir: string;
  /** Queued mode: follow each voucher until it is issued or fails. */
  wait: boolean;
  waitTimeoutMs: number;
  pollMs?: number;
}

/** The error code of a voucher sent several times without an answer, which the service lacks. */
export const NO_ANSWER = "no-answer";

export class Issuer {
  private readonly downloads = new Map<string, Promise<VoucherResult>>();

  constructor(
    private readonly client: ApiClient,
    private readonly journal: Journal,
    private readonly settings: IssueSettings,
    private readonly warn: (line: string) => void,
  ) {}

  /** Fills the reference and the point of sale; queued methods want numero 0. */
  static prepare(
    envelope: Envelope,
    source: string,
    puntoVenta: number | undefined,
    mode: "instant" | "queued",
  ): PreparedVoucher {
    const reference = envelope.comprobante.external_reference ?? derivedReference(envelope as never);
    const comprobante = { ...envelope.comprobante, external_reference: reference };
    if (comprobante.punto_venta === undefined && puntoVenta !== undefined) comprobante.punto_venta = puntoVenta;
    if (mode === "queued") comprobante.numero = 0;
    return { source, envelope: { ...envelope, comprobante }, reference };
  }

  async issue(voucher: PreparedVoucher): Promise<VoucherResult> {
    return this.finish(await this.begin(voucher));
  }

  /**
   * The first half of issuing: decide from the journal and, when the voucher is to be sent,
   * fsync its `sending` entry. A lane does this for its next voucher while the current one is
   * in flight, so the fsync costs no time of its own.
   */
  async begin(voucher: PreparedVoucher): Promise<Begun> {
    const decided = await this.decide(voucher);
    if ("result" in decided) return { voucher, result: decided.result };
    await this.journalSending(voucher, decided.reference);
    return { voucher, reference: decided.reference };
  }

  /** The second half: send (unless settled already) and settle. */
  finish(begun: Begun): Promise<VoucherResult> {
    return "result" in begun ? Promise.resolve(begun.result) : this.send(begun.voucher, begun.reference, 1, true);
  }

  /** A begun voucher that will not be sent after all: the journal says so, so nothing is asked about it. */
  async abandon(begun: Begun, why: string): Promise<void> {
    if ("reference" in begun)
      await this.journal.record({ ref: begun.reference, state: "held", mode: this.settings.mode, errors: [why] });
  }

  private async journalSending(voucher: PreparedVoucher, reference: string): Promise<void> {
    const c = voucher.envelope.comprobante;
    await this.journal.record({
      ref: reference,
      state: "sending",
      mode: this.settings.mode,
      tipo: c.tipo,
      ...(c.punto_venta !== undefined ? { punto_venta: c.punto_venta } : {}),
      ...(c.total !== undefined ? { total: c.total } : {}),
      source: voucher.source,
    });
  }

  /** What the journal says about a voucher: settled already, or to be sent under `reference`. */
  private async decide(voucher: PreparedVoucher): Promise<{ result: VoucherResult } | { reference: string }> {
    let reference = voucher.reference;
    const known = this.journal.get(reference);
    if (known && (known.state === "issued" || known.state === "queued")) {
      if (!this.settings.allowDuplicate) {
        const result = this.skipped(voucher, known);
        // Already issued, but its PDF is not where the journal says (another folder, deleted):
        // fetch it again rather than leave the voucher without its document.
        const missing = !result.pdf || !existsSync(result.pdf);
        return {
          result:
            this.settings.savePdf && missing ? await this.withDocuments(result, undefined, undefined, true) : result,
        };
      }
      reference = this.nextReference(reference);
    } else if (known && (known.state === "sending" || known.state === "unknown")) {
      // A run died or lost an answer here: ask the service before sending anything.
      const settled = await this.reconcile(voucher, reference);
      if (settled) return { result: settled };
    }
    return { reference };
  }

  /**
   * Several vouchers in one call: `lotes` (instant, up to 20 of one type, in date order) or
   * `lotes_encola` (queued, up to 100). Results come back in input order.
   */
  async issueBatch(vouchers: PreparedVoucher[]): Promise<VoucherResult[]> {
    const results: (VoucherResult | undefined)[] = [];
    const pending: { index: number; voucher: PreparedVoucher; reference: string }[] = [];
    for (const [index, voucher] of vouchers.entries()) {
      const decided = await this.decide(voucher);
      if ("result" in decided) results[index] = decided.result;
      else pending.push({ index, voucher, reference: decided.reference });
    }
    if (pending.length === 1) {
      const [only] = pending as [(typeof pending)[number]];
      results[only.index] = await this.send(only.voucher, only.reference, 1);
    } else if (pending.length > 1) {
      const queued = this.settings.mode === "queued";
      // One write and one fsync for the whole group's `sending` entries.
      await this.journal.recordAll(
        pending.map((p) => {
          const c = p.voucher.envelope.comprobante;
          return {
            ref: p.reference,
            state: "sending" as const,
            mode: this.settings.mode,
            tipo: c.tipo,
            ...(c.total !== undefined ? { total: c.total } : {}),
            source: p.voucher.source,
          };
        }),
      );
      const wires = pending.map((p) => this.wire(p.voucher, p.reference));
      let answer: Answer | undefined;
      try {
        answer = await this.client.issueOrUnknown(queued ? "facturacion/lotes_encola" : "facturacion/lotes", {
          requests: wires,
        });
      } catch (error) {
        if (!(error instanceof TransportError)) {
          for (const p of pending)
            await this.journal.record({
              ref: p.reference,
              state: "rejected",
              mode: this.settings.mode,
              errors: [(error as Error).message],
            });
          throw error;
        }
        this.warn(
          t("batch of {n}: {message}; asking the service about each voucher", {
            n: pending.length,
            message: error.message,
          }),
        );
        // Settle each one by reference; what the service does not have goes again, one by one.
        for (const p of pending)
          results[p.index] =
            (await this.reconcile(p.voucher, p.reference)) ?? (await this.send(p.voucher, p.reference, 2));
      }
      if (answer) {
        const items: Answer[] = Array.isArray(answer.response) ? answer.response : [];
        for (const [i, p] of pending.entries()) {
          const item = items[i];
          if (!item) {
            // Nothing processed (a validation error of the whole batch).
            results[p.index] = await this.rejected(p.voucher, p.reference, { ...answer, error: "S" });
          } else if (item.error !== "N") {
            results[p.index] = await this.rejected(p.voucher, p.reference, item);
          } else if (queued) {
            await this.journal.record({
              ref: p.reference,
              state: "queued",
              mode: "queued",
              tipo: p.voucher.envelope.comprobante.tipo,
            });
            results[p.index] = this.settings.wait
              ? await this.follow(p.voucher, p.reference)
              : this.result(p.voucher, p.reference, "queued", item);
          } else {
            const number = parseVoucherNumber(item.comprobante_nro);
            const result = this.result(p.voucher, p.reference, "issued", {
              ...item,
              punto_venta: number?.punto_venta ?? null,
              numero: number?.numero ?? null,
            });
            await this.journalIssued(result);
            results[p.index] = await this.withDocuments(result, item.comprobante_pdf_url, item.comprobante_ticket_url);
          }
        }
      }
    }
    return results as VoucherResult[];
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
      ...wire
    } = body as Envelope & Record<string, unknown>;
    return wire;
  }

  private nextReference(reference: string): string {
    for (let n = 2; ; n++) {
      const candidate = `${reference.slice(0, 250)}-R${n}`;
      const entry = this.journal.get(candidate);
      if (!entry || entry.state === "rejected") return candidate;
    }
  }

  private async send(
    voucher: PreparedVoucher,
    reference: string,
    attempt: number,
    journaled = false,
  ): Promise<VoucherResult> {
    const c = voucher.envelope.comprobante;
    if (!journaled) await this.journalSending(voucher, reference);
    const wire = this.wire(voucher, reference);
    let answer: Answer;
    try {
      answer = await this.client.issueOrUnknown(
        this.settings.mode === "queued" ? "facturacion/nuevo_encola" : "facturacion/nuevo",
        wire,
      );
    } catch (error) {
      if (!(error instanceof TransportError)) {
        // Refused before anything was done (access, maintenance): nothing to reconcile.
        await this.journal.record({
          ref: reference,
          state: "rejected",
          mode: this.settings.mode,
          errors: [(error as Error).message],
        });
        throw error;
      }
      this.warn(
        t("{source}: {message}; asking the service whether {ref} was stored", {
          source: voucher.source,
          message: error.message,
          ref: reference,
        }),
      );
      const settled = await this.reconcile(voucher, reference);
      if (settled) return settled;
      if (attempt >= 3) {
        // The service was asked each time and holds nothing under this reference: the outcome is
        // known (not issued), and the next run sends it again.
        await this.journal.record({
          ref: reference,
          state: "rejected",
          mode: this.settings.mode,
          errors: [error.message],
        });
        const result = this.result(voucher, reference, "rejected", {});
        result.errors = [error.message];
        result.error_details = [{ code: NO_ANSWER, text: error.message }];
        result.hint = t(
          "sent {n} times without an answer, and the service holds nothing under {ref}: not issued; run again later",
          {
            n: attempt,
            ref: reference,
          },
        );
        return result;
      }
      return this.send(voucher, reference, attempt + 1);
    }
    if (answer.error !== "N") return this.rejected(voucher, reference, answer);
    if (this.settings.mode === "queued") {
      await this.journal.record({ ref: reference, state: "queued", mode: "queued", tipo: c.tipo });
      const queued = this.result(voucher, reference, "queued", answer);
      return this.settings.wait ? this.follow(voucher, reference) : queued;
    }
    const number = parseVoucherNumber(answer.comprobante_nro);
    const puntoVenta = number?.punto_venta ?? (c.punto_venta as number | undefined) ?? null;
    const result = this.result(voucher, reference, "issued", {
      ...answer,
      punto_venta: puntoVenta,
      numero: number?.numero ?? null,
    });
    await this.journalIssued(result);
    return this.withDocuments(result, answer.comprobante_pdf_url, answer.comprobante_ticket_url);
  }

  /**
   * Asks the service for the reference. Returns the settled result, or undefined when the
   * service has no voucher under it (so sending is safe).
   */
  private async reconcile(voucher: PreparedVoucher, reference: string): Promise<VoucherResult | undefined> {
    let found: Answer | undefined;
    try {
      found = await lookup(this.client, reference);
    } catch (error) {
      await this.journal.record({
        ref: reference,
        state: "unknown",
        mode: this.settings.mode,
        errors: [(error as Error).message],
      });
      return this.unknown(
        voucher,
        reference,
        t("could not ask the service about {ref}: {message}", { ref: reference, message: (error as Error).message }),
      );
    }
    if (!found) return undefined;
    const result = this.fromQuery(voucher, reference, found);
    result.reconciled = true;
    if (result.status === "issued") return this.issuedFromQuery(result, found);
    if (result.status === "queued") {
      await this.journal.record({ ref: reference, state: "queued", mode: "queued" });
      return this.settings.wait ? this.follow(voucher, reference) : result;
    }
    await this.journal.record({ ref: reference, state: "rejected", mode: this.settings.mode, errors: result.errors });
    return result;
  }

  /** Queued mode with --wait: polls by reference until issued, failed, or the timeout. */
  private async follow(voucher: PreparedVoucher, reference: string): Promise<VoucherResult> {
    const deadline = Date.now() + this.settings.waitTimeoutMs;
    for (;;) {
      const found = await lookup(this.client, reference);
      if (found) {
        const result = this.fromQuery(voucher, reference, found);
        if (result.status === "issued") return this.issuedFromQuery(result, found);
        if (result.status === "rejected") {
          await this.journal.record({ ref: reference, state: "rejected", mode: "queued", errors: result.errors });
          return result;
        }
      }
      if (Date.now() >= deadline) {
        const still = this.result(voucher, reference, "queued", {});
        still.warnings = [
          t("still queued after {seconds} s", { seconds: Math.round(this.settings.waitTimeoutMs / 1000) }),
        ];
        return still;
      }
      await new Promise((r) => setTimeout(r, this.settings.pollMs ?? 500));
    }
  }

  /** A voucher the service reports issued: journal it and save its documents from the links it lists. */
  private async issuedFromQuery(result: VoucherResult, found: Answer): Promise<VoucherResult> {
    await this.journalIssued(result);
    return this.withDocuments(result, found.comprobante.comprobante_pdf_url, found.comprobante.comprobante_ticket_url);
  }

  private async journalIssued(result: VoucherResult): Promise<void> {
    await this.journal.record({
      ref: result.external_reference,
      state: "issued",
      mode: this.settings.mode,
      ...(result.comprobante_tipo ? { tipo: result.comprobante_tipo } : {}),
      ...(result.punto_venta !== null ? { punto_venta: result.punto_venta } : {}),
      ...(result.numero !== null ? { numero: result.numero } : {}),
      ...(result.comprobante_nro ? { comprobante_nro: result.comprobante_nro } : {}),
      ...(result.cae ? { cae: result.cae } : {}),
    });
  }

  /**
   * The result with its documents saved; with `deferDocuments`, the result at once and the
   * download left running, for the lane to collect with takeDownload() while it goes on.
   */
  private withDocuments(
    result: VoucherResult,
    pdfUrl: unknown,
    ticketUrl: unknown,
    refetch = false,
  ): Promise<VoucherResult> {
    const saving = this.saveDocuments(result, pdfUrl, ticketUrl, refetch);
    if (!this.settings.deferDocuments || !this.settings.savePdf) return saving;
    this.downloads.set(result.external_reference, saving);
    return Promise.resolve(result);
  }

  /** The download still running for a result withDocuments() returned early, if any. */
  takeDownload(reference: string): Promise<VoucherResult> | undefined {
    const download = this.downloads.get(reference);
    this.downloads.delete(reference);
    return download;
  }

  /** Saves the PDF and the ticket at once: their links die the same day. */
  /** `refetch`: no links at hand (an earlier run's voucher), so both documents come from fresh ones. */
  private async saveDocuments(
    result: VoucherResult,
    pdfUrl: unknown,
    ticketUrl: unknown,
    refetch: boolean,
  ): Promise<VoucherResult> {
    if (!this.settings.savePdf) return result;
    if (result.numero === null || result.punto_venta === null || !result.comprobante_tipo) {
      result.warnings = [...(result.warnings ?? []), t("PDF not saved: the answer gave no usable voucher number")];
      return result;
    }
    const save = async (kind: "pdf" | "ticket", url: unknown): Promise<string | null> => {
      const name = `${documentName(result.comprobante_tipo as string, result.punto_venta as number, result.numero as number, kind === "ticket" ? "-ticket" : "")}.pdf`;
      try {
        return await saveDocument(this.client, this.settings.outDir, name, url, () =>
          freshLink(
            this.client,
            { tipo: result.comprobante_tipo, punto_venta: result.punto_venta, numero: result.numero },
            kind,
          ),
        );
      } catch (error) {
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
    await this.journal.record({
      ref: result.external_reference,
      state: "issued",
      mode: this.settings.mode,
      pdf: result.pdf,
      ticket: result.ticket,
    });
    return result;
  }

  private skipped(voucher: PreparedVoucher, entry: JournalEntry): VoucherResult {
    const result = this.result(voucher, entry.ref, "skipped-duplicate", {
      punto_venta: entry.punto_venta ?? null,
      numero: entry.numero ?? null,
      comprobante_nro: entry.comprobante_nro,
      cae: entry.cae,
    });
    result.pdf = entry.pdf ?? null;
    result.ticket = entry.ticket ?? null;
    result.hint = t("already issued (journal): not sent again; --allow-duplicate issues another on purpose");
    return result;
  }

  private async rejected(voucher: PreparedVoucher, reference: string, answer: Answer): Promise<VoucherResult> {
    const result = this.result(voucher, reference, "rejected", answer);
    result.errors = (answer.errores as string[] | undefined) ?? [];
    result.error_details = Array.isArray(answer.error_details) ? answer.error_details : [];
    result.hint = hintFor(result, answer);
    await this.journal.record({ ref: reference, state: "rejected", mode: this.settings.mode, errors: result.errors });
    return result;
  }

  private unknown(voucher: PreparedVoucher, reference: string, message: string): VoucherResult {
    const result = this.result(voucher, reference, "unknown", {});
    result.errors = [message];
    result.hint = t(
      "sent, but no answer came back and the service could not be asked; `facturar journal --reconcile` settles it later",
    );
    return result;
  }

  private fromQuery(voucher: PreparedVoucher, reference: string, item: Answer): VoucherResult {
    const c = item.comprobante ?? {};
    const status = String(c.status ?? "");
    const state: VoucherStatus = status === "EMITIDO" ? "issued" : status.includes("CON ERROR") ? "rejected" : "queued";
    const result = this.result(voucher, reference, state, { ...c, comprobante_tipo: c.tipo });
    if (state === "rejected") result.errors = Array.isArray(c.errores) && c.errores.length > 0 ? c.errores : [status];
    return result;
  }

  private result(voucher: PreparedVoucher, reference: string, status: VoucherStatus, answer: Answer): VoucherResult {
    const c = voucher.envelope.comprobante;
    const number = parseVoucherNumber(answer.comprobante_nro);
    const puntoVenta = answer.punto_venta ?? number?.punto_venta ?? c.punto_venta ?? null;
    const numero = answer.numero ?? (number && number.numero > 0 ? number.numero : null);
    const issued = status === "issued" || status === "skipped-duplicate";
    return {
      ok: status !== "rejected" && status !== "unknown" && status !== "invalid",
      status,
      source: voucher.source,
      external_reference: reference,
      comprobante_tipo: answer.comprobante_tipo ?? c.tipo ?? null,
      punto_venta: puntoVenta === null ? null : Number(puntoVenta),
      numero: numero === null || numero === undefined || Number(numero) === 0 ? null : Number(numero),
      comprobante_nro: issued && puntoVenta !== null && numero ? voucherNumber(puntoVenta, numero) : null,
      // The development plan and queued replies leave these empty or as placeholders.
      cae: answer.cae ? String(answer.cae) : null,
      vencimiento_cae:
        answer.vencimiento_cae && answer.vencimiento_cae !== "01/01/2000" ? String(answer.vencimiento_cae) : null,
      vencimiento_pago: answer.vencimiento_pago ? String(answer.vencimiento_pago) : (c.vencimiento ?? null),
      total: c.total ?? null,
      qr: answer.afip_qr || answer.tax_qr ? String(answer.afip_qr || answer.tax_qr) : null,
      pdf: null,
      ticket: null,
      errors: [],
      error_details: [],
    };
  }
}

/** The newest voucher the service holds under `reference`, or undefined. */
export async function lookup(client: ApiClient, reference: string): Promise<Answer | undefined> {
  const answer = await client.read("facturacion/consulta_avanzada", {
    busqueda_tipo: "EXT_REF",
    pagina: 0,
    limite: 10,
    comprobante: { external_reference: reference, operacion: "V" },
  });
  if (answer.error !== "N") {
    const message = (answer.errores as string[] | undefined)?.join("; ") ?? "";
    if (/no se (han )?encontr/i.test(message)) return undefined;
    throw new FacturarError(
      t("the service could not be asked about {ref}: {message}", { ref: reference, message }),
      "unavailable",
      "service.query-failed",
    );
  }
  const items = Array.isArray(answer.comprobantes) ? answer.comprobantes : [];
  return items.find((item: Answer) => String(item?.comprobante?.external_reference ?? "") === reference);
}

/** A fresh PDF or ticket link for an issued voucher (`regenerar_pdf`). */
export async function freshLink(
  client: ApiClient,
  voucher: { tipo: unknown; punto_venta: unknown; numero: unknown },
  kind: "pdf" | "ticket",
): Promise<unknown> {
  const answer = await client.read("facturacion/regenerar_pdf", {
    comprobante: { tipo: voucher.tipo, operacion: "V", punto_venta: voucher.punto_venta, numero: voucher.numero },
  });
  if (answer.error !== "N")
    throw new Error((answer.errores as string[] | undefined)?.join("; ") || t("regenerar_pdf failed"));
  return kind === "pdf" ? answer.comprobante_pdf_url : answer.comprobante_ticket_url;
}

/** Downloads a document link and saves it; an expired link is regenerated once. */
export async function saveDocument(
  client: ApiClient,
  dir: string,
  name: string,
  url: unknown,
  regenerate: () => Promise<unknown>,
): Promise<string> {
  let link = url;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (typeof link !== "string" || link === "") {
      link = await regenerate();
      continue;
    }
    const target = documentUrl(client, link);
    const response = await client.download(target);
    if ((response.status === 410 || response.status === 404 || response.status === 403) && attempt === 0) {
      link = await regenerate();
      continue;
    }
    if (response.status !== 200) throw new Error(t("the link answered HTTP {status}", { status: response.status }));
    if (response.body.subarray(0, 5).toString("latin1") !== "%PDF-")
      throw new Error(t("the link did not return a PDF"));
    return writeSafely(dir, name, response.body);
  }
  throw new Error(t("no working link for the document"));
}

/** Document links must stay on the service's own host, over http(s). */
export function documentUrl(client: ApiClient, link: string): URL {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new Error(t("not a URL: {link}", { link: JSON.stringify(link.slice(0, 80)) }));
  }
  const base = client.baseUrl;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && base.protocol === "http:")) {
    throw new Error(t("refusing a {protocol} document link", { protocol: url.protocol }));
  }
  if (url.hostname !== base.hostname)
    throw new Error(t("refusing a document link to another host ({host})", { host: url.hostname }));
  return url;
}

function hintFor(result: VoucherResult, answer: Answer): string | undefined {
  const codes = result.error_details.map((d) => d.code);
  const text = result.errors.join(" ");
  if (String(answer.requiere_fec ?? "").toUpperCase() === "SI")
    return t(
      "this buyer must receive a MiPyME credit invoice: issue it as FACTURA DE CREDITO ELECTRONICA MiPyME (FCE)",
    );
  if (codes.includes("TFC-8004"))
    return t(
      "the customer's condicion_iva does not fit this voucher type (a registered taxpayer gets class A; consumers and exempt customers class B)",
    );
  if (/encolad/i.test(text))
    return t("this point of sale has queued vouchers: use `facturar issue-queued` until they are processed");
  if (/proximo a emitir|next/i.test(text)) return t("leave numero out: the service assigns the next number itself");
  return undefined;
}
