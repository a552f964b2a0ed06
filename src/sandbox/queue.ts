/**
 * The service's queue (reference §6.6 to §6.8): taking a voucher out of it, changing its date,
 * putting a failed one back, and the worker that processes what it holds.
 */

import { voucherNumber } from "../voucher/codes.js";
import { dayNumber } from "../voucher/dates.js";
import { type AuthorityHost, authorityDateRefusal, productionRefusals } from "./authority.js";
import { fail, type Json, type Reply } from "./reply.js";
import { type PointOfSale, type Store, type StoredVoucher, stripKind } from "./store.js";
import { isDate } from "./validation.js";

const NOT_FOUND = "No se han encontrado comprobantes.";

/** What the queue needs of the sandbox (service.ts). */
export interface QueueHost extends AuthorityHost {
  readonly store: Store;
  readonly options: AuthorityHost["options"] & { readonly random: () => number };
  freshLinks(v: StoredVoucher): { pdf: string; ticket: string; durable: Promise<unknown> };
}

export async function eliminarEncolado(host: QueueHost, body: Json, pv: PointOfSale): Promise<Reply> {
  const reference = String(body?.external_reference ?? "");
  const matches = host.store
    .findByReference(pv.punto_venta, reference)
    .filter((v) => body?.fecha === undefined || v.fecha === body.fecha);
  if (matches.length === 0) return fail([NOT_FOUND], { procesados_cant: 0, procesados: [] });
  const deletable = matches.filter((v) => v.queued);
  await Promise.all(deletable.map((v) => host.store.update(v, { deleted: true, queued: false })));
  const procesados = deletable.map(
    (v) => `El comprobante ${v.tipo} ${voucherNumber(v.punto_venta, 0)} se ha eliminado correctamente. `,
  );
  const error = deletable.length === matches.length ? "N" : deletable.length === 0 ? "S" : "PARCIAL";
  const errores = error === "N" ? [] : ["Los comprobantes ya emitidos no se pueden eliminar."];
  return { status: 200, body: { error, errores, procesados_cant: deletable.length, procesados } };
}

function firstQueued(
  host: QueueHost,
  body: Json,
  pv: PointOfSale,
  accept: (v: StoredVoucher) => boolean,
): StoredVoucher | undefined {
  // Several vouchers may share a reference: the service acts on the first match.
  return host.store.findByReference(pv.punto_venta, String(body?.external_reference ?? "")).find(accept);
}

export async function cambiarFechaEncolado(host: QueueHost, body: Json, pv: PointOfSale): Promise<Reply> {
  const v = firstQueued(host, body, pv, (x) => x.queued);
  if (!v) return fail([NOT_FOUND]);
  if (!isDate(body?.fecha)) return fail(["El campo fecha debe tener el formato dd/mm/aaaa."]);
  // The method's body lists both dates (reference §4.2): the due date moves with the voucher.
  if (!isDate(body?.vencimiento)) return fail(["El campo vencimiento debe tener el formato dd/mm/aaaa."]);
  const vencimiento = body.vencimiento;
  const comprobante = { ...v.comprobante, fecha: body.fecha, vencimiento };
  // Changing the date also puts an errored voucher back in the queue.
  await host.store.update(v, {
    fecha: body.fecha,
    vencimiento,
    comprobante,
    status: "EN COLA, ESPERANDO APROBACION",
    errors: [],
    attempts: 0,
  });
  return { status: 200, body: { error: "N", errores: [] } };
}

export async function reenviarEncolado(host: QueueHost, body: Json, pv: PointOfSale): Promise<Reply> {
  const v = firstQueued(host, body, pv, (x) => x.queued && x.status === "ENVIADO A PROCESAR - CON ERROR");
  if (!v) return fail([NOT_FOUND]);
  await host.store.update(v, { status: "EN COLA, ESPERANDO APROBACION", errors: [], attempts: 0 });
  return { status: 200, body: { error: "N", errores: [] } };
}

/** One pass of the worker: issues the queued vouchers whose date has come (reference §8.1). */
export async function processQueue(host: QueueHost): Promise<number> {
  const today = host.todayNumber();
  let issued = 0;
  const waiting = host.store
    .queuedVouchers()
    .filter((v) => v.status !== "ENVIADO A PROCESAR - CON ERROR" && v.attempts < 100)
    .sort((a, b) => dayNumber(a.fecha) - dayNumber(b.fecha) || a.id - b.id);
  const writes: Promise<void>[] = [];
  for (const v of waiting) {
    if (dayNumber(v.fecha) > today) {
      if (v.status !== "APROBADO Y EN COLA") writes.push(host.store.update(v, { status: "APROBADO Y EN COLA" }));
      continue;
    }
    if (host.options.faults.authorityDown) {
      // An outage is retried automatically on the next pass.
      writes.push(host.store.update(v, { attempts: v.attempts + 1 }));
      continue;
    }
    if (host.options.random() < host.options.faults.queueError || v.attempts + 1 >= 100) {
      writes.push(
        host.store.update(v, {
          status: "ENVIADO A PROCESAR - CON ERROR",
          attempts: v.attempts + 1,
          errors: ["AFIP No devolvio el CAE asociado. (Cod. Error #6661141.S1254)"],
        }),
      );
      continue;
    }
    const dated = authorityDateRefusal(host, v.comprobante, v.punto_venta);
    const refused = [
      ...(dated ? [dated] : []),
      ...productionRefusals(host, { cliente: stripKind(v.party), comprobante: v.comprobante }).map((p) => p.text),
    ];
    if (refused.length > 0) {
      writes.push(
        host.store.update(v, {
          status: "ENVIADO A PROCESAR - CON ERROR",
          attempts: v.attempts + 1,
          errors: refused,
        }),
      );
      continue;
    }
    const numero = host.store.takeNumber(v.punto_venta, v.tipo);
    const comprobante = { ...v.comprobante, numero };
    writes.push(
      host.store.update(v, { numero, comprobante, status: "EMITIDO", queued: false, attempts: v.attempts + 1 }),
    );
    writes.push(host.freshLinks(v).durable.then(() => undefined));
    issued++;
  }
  await Promise.all(writes);
  return issued;
}
