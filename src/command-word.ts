/** Global flags that take a value: the word after one is no command. */
const VALUED = new Set(["-p", "--profile", "-c", "--config", "--lang"]);

/** Where the command's name is among the words after `facturar`, past global options; -1: none. */
export function commandWordAt(words: string[]): number {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") return -1;
    if (!word.startsWith("-")) return i;
    if (VALUED.has(word)) i++;
  }
  return -1;
}
