// LIKE patterns from a user's text, on either engine: the text taken literally, its \ % and _ escaped for
// `LIKE ... ESCAPE '\'`.
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The pattern of "contains `text`" (use with ESCAPE '\'). */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
