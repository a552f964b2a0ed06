/** A word as a POSIX shell reads it back: quoted only where it must be (commands we print to run). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
