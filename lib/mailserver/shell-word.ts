/** A word of a shell command line printed for an operator to copy, quoted when the shell would split or expand it. */
export const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);
