/**
 * Faults the sandbox can inject, so that tests and users can see how the client behaves when the
 * network and the service misbehave. Syntax: `NAME=VALUE` pairs, comma separated (the
 * `FACTURAR_SANDBOX_FAULTS` variable) or one per `--fault` flag.
 */
import { WordedError } from "../errors.js";
import { msg } from "../i18n/message.js";

export interface Faults {
  /** Milliseconds added before every answer. */
  latency: number;
  /**
   * Least milliseconds between API requests, across all connections (reference §11: the service
   * asks 100): a request that arrives sooner after the last one served is answered 429 with
   * Retry-After, and does not count itself. Document downloads are not counted.
   */
  spacing: number;
  /**
   * Milliseconds a changing call (issuing, the queue methods) works before it stores anything and
   * answers: a client whose deadline is shorter loses the answer while the voucher is still being
   * stored, as with the real platform, which may hold a call for about 90 s.
   */
  slowCommit: number;
  /** Share of requests answered with a 5xx. */
  error5xx: number;
  /** Share of requests answered 429 with Retry-After. */
  ratelimit: number;
  /** Share of requests whose connection is dropped before anything is processed. */
  dropBefore: number;
  /** Share of requests processed and committed, whose connection is then dropped unanswered. */
  dropAfterCommit: number;
  /** Every call answers the maintenance reply (reference §6.5). */
  maintenance: boolean;
  /** The authority is down: instant issuing is refused, the queue waits. */
  authorityDown: boolean;
  /** The API DEV plan has lapsed (it renews itself otherwise): every call but status refused. */
  planEnded: boolean;
  /**
   * The authority's checks the development plan skips (spec §1) are applied, as production does:
   * part of --like-production.
   */
  authorityChecks: boolean;
  /**
   * Queued calls (`nuevo_encola`, `lotes_encola`) are refused at a point of sale without a webhook
   * URL (the sandbox's --webhook setting), as the real service refuses them (reference §6.7
   * "Prerequisites", §12): part of --like-production.
   */
  webhookRequired: boolean;
  /** Share of queued vouchers whose processing ends in error (to exercise re-queueing). */
  queueError: number;
  /**
   * Share of vouchers issued at once (`nuevo`, `lotes`) that the authority approves with an
   * observation (`afip_observaciones`, `observaciones` on `lotes` items; reference §6.9).
   */
  observe: number;
  /**
   * Most vouchers a listing page holds, whatever `limite` asks (0: as asked). Test-only: it gives
   * a few vouchers the pages that only thousands would take.
   */
  pageSize: number;
}

export const NO_FAULTS: Faults = {
  latency: 0,
  spacing: 0,
  slowCommit: 0,
  error5xx: 0,
  ratelimit: 0,
  dropBefore: 0,
  dropAfterCommit: 0,
  maintenance: false,
  authorityDown: false,
  planEnded: false,
  authorityChecks: false,
  webhookRequired: false,
  queueError: 0,
  observe: 0,
  pageSize: 0,
};

const RATES = {
  error5xx: "error5xx",
  ratelimit: "ratelimit",
  "drop-before": "dropBefore",
  "drop-after-commit": "dropAfterCommit",
  "queue-error": "queueError",
  observe: "observe",
} as const;

const FAULT_NAMES = [
  "latency",
  "spacing",
  "slow-commit",
  "page-size",
  ...Object.keys(RATES),
  "maintenance",
  "authority-down",
  "plan-ended",
  "authority-checks",
  "webhook-required",
];

/** The faults that are on or off. */
const SWITCHES = {
  maintenance: "maintenance",
  "authority-down": "authorityDown",
  "plan-ended": "planEnded",
  "authority-checks": "authorityChecks",
  "webhook-required": "webhookRequired",
} as const;

export class FaultSpecError extends WordedError {}

/** Parses `latency=50,error5xx=0.05,maintenance`; throws FaultSpecError naming the bad part. */
export function parseFaults(specs: string[], base: Faults = NO_FAULTS): Faults {
  const faults = { ...base };
  for (const part of specs.flatMap((s) => s.split(",")).map((s) => s.trim())) {
    if (part === "") continue;
    const [name = "", value] = part.split("=", 2).map((s) => s.trim());
    const switched = Object.hasOwn(SWITCHES, name) ? SWITCHES[name as keyof typeof SWITCHES] : undefined;
    if (switched) {
      if (value !== undefined && !["1", "true", "on", "0", "false", "off"].includes(value)) {
        throw new FaultSpecError(
          msg("fault {name} takes no value (or on/off), got {value}", { name, value: JSON.stringify(value) }),
        );
      }
      faults[switched] = value === undefined || ["1", "true", "on"].includes(value);
      continue;
    }
    if (name === "page-size") {
      const size = Number(value);
      if (value === undefined || !Number.isInteger(size) || size < 1) {
        throw new FaultSpecError(
          msg("{name} takes a whole number from 1, e.g. {name}=2; got {part}", { name, part: JSON.stringify(part) }),
        );
      }
      faults.pageSize = size;
      continue;
    }
    if (name === "latency" || name === "spacing" || name === "slow-commit") {
      const ms = Number(value);
      if (value === undefined || !Number.isInteger(ms) || ms < 0) {
        throw new FaultSpecError(
          msg("{name} takes whole milliseconds, e.g. {name}=200; got {part}", { name, part: JSON.stringify(part) }),
        );
      }
      if (name === "latency") faults.latency = ms;
      else if (name === "spacing") faults.spacing = ms;
      else faults.slowCommit = ms;
      continue;
    }
    const key = Object.hasOwn(RATES, name) ? RATES[name as keyof typeof RATES] : undefined;
    if (!key)
      throw new FaultSpecError(
        msg("unknown fault {name}; known: {value}", { name: JSON.stringify(name), value: FAULT_NAMES.join(", ") }),
      );
    const rate = Number(value);
    if (value === undefined || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      throw new FaultSpecError(
        msg("{name} takes a rate from 0 to 1, e.g. {name}=0.05; got {part}", { name, part: JSON.stringify(part) }),
      );
    }
    faults[key] = rate;
  }
  return faults;
}

/**
 * `--like-production`: as far away as the real service (tens of ms), as strict about spacing, with
 * the authority's checks that the development plan skips, and queued calls refused at a point of
 * sale without a webhook URL.
 */
export const LIKE_PRODUCTION = "latency=80,spacing=100,authority-checks,webhook-required";

/**
 * How long after a request this sandbox may still be storing a voucher: it stores before it
 * answers, so a lookup right after a lost answer is final, except while a fault delays its work.
 */
export function sandboxSettleWindow(faults: Faults): number {
  return 1000 + faults.latency + faults.slowCommit;
}
