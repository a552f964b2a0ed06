/** `facturar queue delete|reschedule|retry`: the service's queue methods (reference §4.2). */

import type { QueueActionAnswer, Service } from "../api/protocol.js";
import type { JournalState } from "../batch/journal.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { dayNumber } from "../voucher/dates.js";
import { date } from "../voucher/schema.js";
import { missingFlag } from "./define.js";
import { noteInJournal, printAnswer, sentOnce, withConnection } from "./online.js";
import type { QueueOptions } from "./queue.command.js";

/** `facturar queue delete|reschedule|retry --ref R ...`: the queue methods of reference §4.2. */
export async function queueCommand(ctx: Context, action: string, flags: QueueOptions): Promise<Outcome> {
  const { ref } = flags;
  let call: (service: Service) => Promise<QueueActionAnswer>;
  /** What the journal says afterwards: the service's queue decides what a later run does. */
  let after: JournalState;
  if (action === "delete") {
    const fecha = flags.date;
    call = (service) => service.deleteQueued(ref, fecha);
    after = "deleted";
  } else if (action === "reschedule") {
    const fecha = flags.date;
    if (fecha === undefined) throw missingFlag("--date", t("reschedule: the new date, dd/mm/yyyy"));
    const due = flags.due;
    call = async (service) => service.reschedule(ref, fecha, due ?? (await keptDueDate(service, ref, fecha)));
    after = "queued";
  } else if (action === "retry") {
    call = (service) => service.requeue(ref);
    after = "queued";
  } else {
    throw new UsageError(
      t("queue takes delete, reschedule or retry, not {action}", { action: JSON.stringify(action) }),
    );
  }
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    // These change the queue: never retried blindly (they count against the quota).
    const answer = await sentOnce(() => call(connection.service), {
      message: (message) =>
        t("{action} {ref}: {message}; the service may or may not have done it", { action, ref, message }),
      code: "service.unknown",
      hint: t("check with: facturar query --ref {ref}", { ref }),
    });
    await noteInJournal(ctx, connection.account, profile.name, async (journal) => {
      if (journal.get(ref)) await journal.record({ ref, state: after, mode: "queued" });
    });
    const { partial, processed: done } = answer;
    await printAnswer(
      ctx,
      { ok: !partial, action, external_reference: ref, partial, procesados: done, errors: answer.errors },
      [
        ...(done.length > 0 ? done : [t("{action}: done for {ref}", { action, ref })]),
        ...(partial ? [t("only partly: {errors}", { errors: answer.errors.join("; ") })] : []),
      ],
    );
    return partial ? "partial" : "done";
  });
}

/**
 * The due date a rescheduled voucher keeps when `--due` is not given: its own, unless the new date
 * passes it, then the new date. The method's body carries `vencimiento` (reference §4.2), and a
 * due date before the voucher's date is one the authority refuses.
 */
async function keptDueDate(service: Service, ref: string, fecha: string): Promise<string> {
  const queued = (await service.findByReference(ref)).find((v) => v.state !== "issued");
  const own = date().safeParse(queued?.vencimiento_pago);
  return own.success && dayNumber(own.data) >= dayNumber(fecha) ? own.data : fecha;
}
