/**
 * The authority's band for the exchange rate of a voucher in a foreign currency: 2 % to 400 % of
 * its own rate for the currency (tax-rules §4.9, error 10119). The client checks it before
 * sending; the development sandbox refuses as the authority would.
 */
import { Dec } from "./decimal.js";

const LOW = Dec.parse("0.02");
const HIGH = Dec.parse("4");

export function rateBand(rate: Dec): { min: Dec; max: Dec } {
  return { min: rate.mul(LOW), max: rate.mul(HIGH) };
}

export function inRateBand(cotizacion: Dec, rate: Dec): boolean {
  const { min, max } = rateBand(rate);
  return cotizacion.cmp(min) >= 0 && cotizacion.cmp(max) <= 0;
}
