/** The issued voucher a note starts from, fetched by its reference (`issue --from-ref R`). */
import { preferred, type Service } from "../api/protocol.js";
import type { Context } from "../context.js";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";
import type { ServiceVoucher } from "../voucher/held.js";
import { type NoteKind, type NoteSource, NoteSourceError, noteReference } from "../voucher/notes.js";
import { withConnection } from "./online.js";

/** The voucher the service issued under `reference`; a typed error when there is none. */
export async function issuedVoucher(service: Service, reference: string): Promise<ServiceVoucher> {
  const all = await service.findByReference(reference);
  // The reference given back as this very text beats a number that reads as it (00777 echoed 777).
  const exact = all.filter((v) => v.raw.comprobante.external_reference === reference);
  const candidates = exact.length > 0 ? exact : all;
  const found = preferred(candidates);
  if (!found)
    throw new FacturarError(
      t("the service holds no voucher with reference {reference}", { reference }),
      "notFound",
      "notes.not-found",
    );
  if (found.state !== "issued")
    throw new NoteSourceError(
      t("{reference} is not issued ({status}): a note adjusts an issued voucher", {
        reference,
        status: found.status || found.state,
      }),
    );
  const issued = new Set(
    candidates
      .filter((v) => v.state === "issued")
      .map((v) => `${v.tipo} ${voucherNumber(v.punto_venta ?? 0, v.numero ?? 0)}`),
  );
  if (issued.size > 1)
    throw new NoteSourceError(
      t(
        "{n} issued vouchers read as {reference} ({list}): the service gives a reference of digits back as a number, so which one the note adjusts cannot be told",
        { n: issued.size, reference, list: [...issued].join(", ") },
      ),
      t(
        "write the note in a file that names the voucher in comprobantes_asociados (`facturar template` shows the shape), then `facturar issue` it",
      ),
    );
  // Named as asked: the note's reference is derived from it, and an echo may have lost its zeros.
  return {
    ...found,
    external_reference: reference,
    raw: { ...found.raw, comprobante: { ...found.raw.comprobante, external_reference: reference } },
  };
}

export function fetchIssued(ctx: Context, reference: string): Promise<ServiceVoucher> {
  return withConnection(ctx, (connection) => issuedVoucher(connection.service, reference));
}

/**
 * The latest note of `kind` the service holds for the voucher `source`: its sequence n (0 when
 * none) and the note itself, in any state (issued, queued, failed). The notes of a voucher are
 * numbered in order, so the first one missing ends the search. What `issue --from-ref` and the
 * note commands both ask before choosing the note's reference.
 */
export async function latestNote(
  service: Service,
  source: NoteSource,
  kind: NoteKind,
): Promise<{ sequence: number; note?: ServiceVoucher }> {
  const notes = await notesOf(service, source, kind);
  return { sequence: notes.length, ...(notes.length > 0 ? { note: notes.at(-1) } : {}) };
}

/** Every note of `kind` the service holds for the voucher `source`, in order: `R-NC1`, `R-NC2`… */
export async function notesOf(service: Service, source: NoteSource, kind: NoteKind): Promise<ServiceVoucher[]> {
  const notes: ServiceVoucher[] = [];
  for (;;) {
    const note = preferred(await service.findByReference(noteReference(source, kind, notes.length + 1)));
    if (!note) return notes;
    notes.push(note);
  }
}
