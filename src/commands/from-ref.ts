/** The issued voucher a note starts from, fetched by its reference (`issue --from-ref R`). */
import { preferred, type Service, type ServiceVoucher } from "../api/protocol.js";
import type { Context } from "../context.js";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { type NoteKind, type NoteSource, NoteSourceError, noteReference } from "../voucher/notes.js";
import { withConnection } from "./online.js";

/** The voucher the service issued under `reference`; a typed error when there is none. */
export async function issuedVoucher(service: Service, reference: string): Promise<ServiceVoucher> {
  const found = preferred(await service.findByReference(reference));
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
  return found;
}

export function fetchIssued(ctx: Context, reference: string): Promise<ServiceVoucher> {
  return withConnection(ctx, (connection) => issuedVoucher(connection.service, reference));
}

/** The voucher issued under `reference`, if the service holds one (a note made before). */
export function issuedUnder(ctx: Context, reference: string): Promise<ServiceVoucher | undefined> {
  return withConnection(ctx, async (connection) => {
    const found = preferred(await connection.service.findByReference(reference));
    return found?.state === "issued" ? found : undefined;
  });
}

/**
 * The highest n for which the service holds the note `noteReference(source, kind, n)`, in any
 * state (issued, queued, failed); 0 when it holds none. The notes of a voucher are numbered in
 * order, so the first one missing ends the search.
 */
export async function latestNoteSequence(service: Service, source: NoteSource, kind: NoteKind): Promise<number> {
  let sequence = 0;
  while ((await service.findByReference(noteReference(source, kind, sequence + 1))).length > 0) sequence++;
  return sequence;
}
