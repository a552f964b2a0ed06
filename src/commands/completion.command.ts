/** `facturar completion` and the hidden `__complete` its scripts call; the action is ./completion.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";

export const define: Define = (program, run) => {
  const command = program
    .command("completion")
    .description(t("print shell completion: source <(facturar completion bash) (also zsh, fish)"))
    .argument(t("<shell>"), t("bash | zsh | fish"))
    .action(run(async () => (await import("./completion.js")).completionCommand));
  examples(command, [
    [t("bash, from now on: add this line to ~/.bashrc"), "source <(facturar completion bash)"],
    [t("zsh: add this line to ~/.zshrc, after compinit"), "source <(facturar completion zsh)"],
    [t("fish"), "facturar completion fish > ~/.config/fish/completions/facturar.fish"],
  ]);

  program
    .command("__complete", { hidden: true })
    .argument("[words...]")
    .option("--shell <shell>")
    .action(
      run(async () => {
        const { completeCommand } = await import("./completion.js");
        return (ctx, words: string[], options: { shell?: string }) =>
          completeCommand(ctx, program, words, options.shell ?? "bash");
      }),
    );
};
