/**
 * Vouchers in a foreign currency, checked against the authority's own rate before anything is
 * sent: their cotizacion must lie within 2 % to 400 % of it (tax-rules §4.9). The rate is asked
 * once per currency and day (each call uses a request of the plan's quota). Where the service
 * cannot say, the run goes on with a warning: the authority judges the voucher then.
 */

import { TransportError } from "../api/http.js";
import type { Service } from "../api/protocol.js";
import { FacturarError, textOf } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";
import { argentinaToday, dayNumber, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { inRateBand, rateBand } from "../voucher/exchange.js";

export interface ForeignVoucher<V> {
  voucher: V;
  moneda: string;
  cotizacion: string;
  fecha: string;
  /** Where its cotizacion is in the input. */
  place: Text;
}

export interface RateRefusal<V> {
  voucher: V;
  moneda: string;
  place: Text;
  message: Text;
}

export async function checkRates<V>(
  service: Service,
  vouchers: ForeignVoucher<V>[],
  warn: (line: Text) => void,
  /** Today in Argentina (the test clock may move it). */
  today: number = argentinaToday(),
): Promise<RateRefusal<V>[]> {
  const rates = new Map<string, Promise<Dec | undefined>>();
  const ask = async (moneda: string, fecha: string | undefined): Promise<Dec | undefined> => {
    try {
      return Dec.parse(await service.exchangeRate(moneda, fecha));
    } catch (error) {
      if (!(error instanceof FacturarError || error instanceof TransportError)) throw error;
      warn(
        msg(
          "could not get the authority's exchange rate for {moneda} ({message}); the service will judge the cotizacion",
          {
            moneda,
            message: textOf(error),
          },
        ),
      );
      return undefined;
    }
  };
  const refused: RateRefusal<V>[] = [];
  for (const f of vouchers) {
    // The rate of the voucher's day; a day still to come has none yet: today's.
    const fecha = dayNumber(f.fecha) <= today ? f.fecha : undefined;
    const key = `${f.moneda}|${fecha ?? ""}`;
    let asked = rates.get(key);
    if (!asked) {
      asked = ask(f.moneda, fecha);
      rates.set(key, asked);
    }
    const rate = await asked;
    const cotizacion = Dec.tryParse(f.cotizacion);
    if (!rate || !cotizacion || inRateBand(cotizacion, rate)) continue;
    const { min, max } = rateBand(rate);
    refused.push({
      voucher: f.voucher,
      moneda: f.moneda,
      place: f.place,
      message: msg(
        "cotizacion {cotizacion} is not within 2 % to 400 % of the authority's rate for {moneda} of {fecha} ({rate}): it takes {min} to {max}",
        {
          cotizacion: cotizacion.toString(),
          moneda: f.moneda,
          fecha: fecha ?? formatDay(today),
          rate: rate.toFixed(2),
          min: min.toFixed(2),
          max: max.toFixed(2),
        },
      ),
    });
  }
  return refused;
}
