/**
 * The webhook URL of each point of sale, a setting of the sandbox as the service's web panel has
 * it (reference §4.8, §7): the real service refuses `nuevo_encola` and `lotes_encola` at a point of
 * sale without one (§6.7 "Prerequisites"), and so does the sandbox under the `webhook-required`
 * fault (part of --like-production). The sandbox only notes the URL: it sends nothing to it.
 * Syntax: `URL` (every point of sale) or `PV=URL`, comma separated (`FACTURAR_SANDBOX_WEBHOOK`),
 * or one per `--webhook` flag.
 */
import { WordedError } from "../errors.js";
import { msg } from "../i18n/message.js";

export interface Webhooks {
  /** The URL of every point of sale not named on its own. */
  all?: string;
  byPointOfSale: Readonly<Record<number, string>>;
}

export const NO_WEBHOOKS: Webhooks = { byPointOfSale: {} };

export class WebhookSpecError extends WordedError {}

/** The panel's field: up to 255 characters, `https://www.dominio.com/script-nombre`. */
const MAX_LENGTH = 255;

/** Parses `https://a/b,680=https://c/d`; throws WebhookSpecError naming the bad part. */
export function parseWebhooks(specs: string[]): Webhooks {
  const byPointOfSale: Record<number, string> = {};
  let all: string | undefined;
  for (const part of specs.flatMap((s) => s.split(",")).map((s) => s.trim())) {
    if (part === "") continue;
    const named = /^(\d{1,5})=(.*)$/.exec(part);
    const url = (named ? (named[2] as string) : part).trim();
    if (!isWebhookUrl(url))
      throw new WebhookSpecError(
        msg(
          "webhook {part}: write an http:// or https:// URL of up to 255 characters, or PV=URL for one point of sale",
          {
            part: JSON.stringify(part),
          },
        ),
      );
    if (named) byPointOfSale[Number(named[1])] = url;
    else all = url;
  }
  return { ...(all !== undefined ? { all } : {}), byPointOfSale };
}

function isWebhookUrl(text: string): boolean {
  if (text.length > MAX_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The webhook URL of a point of sale, if it has one. */
export function webhookOf(webhooks: Webhooks, puntoVenta: number): string | undefined {
  return webhooks.byPointOfSale[puntoVenta] ?? webhooks.all;
}
