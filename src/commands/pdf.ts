/** `facturar pdf`: fresh links for an issued voucher (regenerar_pdf), then its PDF and ticket saved. */

import { findSaleOrPurchase, type Links, preferred, type Service, ServiceRefusedError } from "../api/protocol.js";
import { DocumentUnavailableError, saveDocument } from "../batch/documents.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { say, t } from "../i18n/index.js";
import { documentName } from "../voucher/codes.js";
import type { Operacion, ServiceVoucher } from "../voucher/held.js";
import { noteInJournal, printAnswer, withConnection } from "./online.js";
import type { PdfOptions } from "./pdf.command.js";
import { targetArg } from "./voucher-target.js";

/** `facturar pdf --ref R | --type T --number N [--pv P] [--out DIR]`: fresh links, then both documents saved. */
export async function pdfCommand(ctx: Context, flags: PdfOptions): Promise<Outcome> {
  const target = targetArg(flags);
  const ref = "ref" in target ? target.ref : undefined;
  const byNumber = "ref" in target ? undefined : target;
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    let tipo: string;
    let puntoVenta: number | undefined;
    let numero: number;
    /** The voucher as a query gave it: its links are the fallback when regenerar_pdf is refused. */
    let queried: ServiceVoucher | undefined;
    if (ref) {
      const found = preferred(await findSaleOrPurchase(connection.service, ref));
      if (!found)
        throw new FacturarError(t("no voucher with reference {ref}", { ref }), "notFound", "service.not-found");
      if (found.state !== "issued" || found.numero === null || found.punto_venta === null)
        throw new FacturarError(
          t("the voucher {ref} is not issued yet ({status}): it has no PDF", { ref, status: found.status }),
          "rejected",
          "pdf.not-issued",
        );
      ({ tipo, punto_venta: puntoVenta, numero } = found as typeof found & { punto_venta: number; numero: number });
      queried = found;
    } else {
      ({ tipo, numero } = byNumber as { tipo: string; numero: number });
      puntoVenta = byNumber?.puntoVenta ?? connection.puntoVenta ?? profile.puntoVenta;
    }
    if (!puntoVenta) throw new UsageError(t("--pv is required: the profile names no point of sale"));
    const links = await linksOf(
      ctx,
      connection.service,
      { tipo, puntoVenta, numero, operacion: queried?.operacion ?? "V" },
      queried,
    );
    const dir = flags.out ?? profile.pdfDir ?? `${process.cwd()}/comprobantes`;
    const regenerate = async () => {
      throw new DocumentUnavailableError(t("the fresh link did not work"));
    };
    const pdf = await saveDocument(
      connection.service,
      dir,
      `${documentName(tipo, puntoVenta, numero)}.pdf`,
      links.pdf,
      regenerate,
    );
    const ticket = links.ticket
      ? await saveDocument(
          connection.service,
          dir,
          `${documentName(tipo, puntoVenta, numero, "-ticket")}.pdf`,
          links.ticket,
          regenerate,
        )
      : null;
    // Documents an earlier run journaled as missing are saved now: no run is to fetch them again.
    await noteInJournal(ctx, connection.account, profile.name, async (journal) => {
      const missing = journal
        .withMissingDocuments()
        .filter((e) => e.tipo === tipo && e.punto_venta === puntoVenta && e.numero === numero);
      if (missing.length > 0)
        await journal.recordAll(
          missing.map((e) => ({ ref: e.ref, state: "issued", mode: e.mode, pdf, ticket, documents_missing: false })),
        );
    });
    await printAnswer(ctx, { ok: true, pdf, ticket }, [
      `PDF: ${pdf}`,
      ...(ticket ? [t("ticket: {ticket}", { ticket })] : []),
    ]);
    return "done";
  });
}

/**
 * Fresh links from `regenerar_pdf`; where the service refuses it (it counts against the quota,
 * and may be refused for a voucher the query still shows), the links `consulta` gives, which
 * cost nothing and are what the service shows in its own listing.
 */
async function linksOf(
  ctx: Context,
  service: Service,
  id: { tipo: string; puntoVenta: number; numero: number; operacion: Operacion },
  queried: ServiceVoucher | undefined,
): Promise<Links> {
  try {
    return await service.freshLinks(id.tipo, id.puntoVenta, id.numero, id.operacion);
  } catch (error) {
    if (!(error instanceof ServiceRefusedError)) throw error;
    const held = queried ?? (await service.voucher(id.tipo, id.puntoVenta, id.numero, id.operacion));
    if (!held?.pdf_url) throw error;
    if (!ctx.quiet)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("regenerar_pdf was refused ({reason}): saving the links the voucher's query gives", { reason: error.errors.join("; ") || say(error.text) })}`,
      );
    return { pdf: held.pdf_url, ticket: held.ticket_url };
  }
}
