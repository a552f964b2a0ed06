/** `facturar ceiling`: flags, help and examples; the action is ./service-info.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** ceiling's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ refresh: o.bool() });
export type CeilingOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("ceiling")
    .description(t("the final-consumer identification ceiling (topecf), cached for the day"))
    .option("--refresh", t("ask the service even if today's answer is cached"))
    .action(run(async () => (await import("./service-info.js")).ceilingCommand, options));
  examples(command, [
    [t("today's ceiling"), "facturar ceiling"],
    [t("ask the service again, as JSON"), "facturar --json ceiling --refresh"],
  ]);
};
