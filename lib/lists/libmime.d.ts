// The part of libmime's API the list service uses (the package ships no types; it exports one instance).
declare module "libmime" {
  const libmime: {
    /** Decodes RFC 2047 encoded words ("=?utf-8?q?...?=") in a header value. */
    decodeWords(value: string): string;
  };
  export default libmime;
}
