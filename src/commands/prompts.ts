/**
 * The prompts of `init` and `issue --interactive` in the user's language, on the context's
 * streams. @inquirer's confirm knows only y/n in English, so ours reads "s"/"sí" as well.
 */
import type { Context } from "../context.js";
import { t } from "../i18n/index.js";

type Validate = (value: string) => boolean | string;

export interface Prompts {
  select<V>(config: { message: string; choices: { name: string; value: V }[]; default?: V }): Promise<V>;
  input(config: { message: string; default?: string; validate?: Validate }): Promise<string>;
  password(config: { message: string; validate?: Validate }): Promise<string>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
}

/** y, yes, s, si, sí → true; n, no → false; empty → the default; anything else → undefined. */
export function yesNo(answer: string, byDefault: boolean): boolean | undefined {
  const a = answer.trim().toLowerCase();
  if (a === "") return byDefault;
  if (["y", "yes", "s", "si", "sí"].includes(a)) return true;
  if (["n", "no"].includes(a)) return false;
  return undefined;
}

export async function prompts(ctx: Context): Promise<Prompts> {
  const p = await import("@inquirer/prompts");
  const io = { input: ctx.io.stdin, output: ctx.io.stderr };
  const c = ctx.errColor;
  const actions: Record<string, string> = { navigate: t("navigate"), select: t("select") };
  const selectTheme = {
    style: {
      keysHelpTip: (keys: [string, string][]) =>
        keys.map(([key, action]) => `${c.bold(key)} ${c.dim(actions[action] ?? action)}`).join(c.dim(" • ")),
    },
  };
  return {
    select: (config) => p.select({ ...config, theme: selectTheme }, io),
    input: (config) => p.input(config, io),
    password: (config) => p.password({ ...config, mask: "*" }, io),
    async confirm({ message, default: byDefault = false }) {
      const answer = await p.input(
        {
          message: `${message} ${c.dim(byDefault ? t("(Y/n)") : t("(y/N)"))}`,
          validate: (v) => yesNo(v, byDefault) !== undefined || t("answer y or n"),
          transformer: (v, { isFinal }) => (isFinal ? (yesNo(v, byDefault) ? t("Yes") : t("No")) : v),
        },
        io,
      );
      return yesNo(answer, byDefault) ?? byDefault;
    },
  };
}
