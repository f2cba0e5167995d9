// A list answer as the panel shows it: the rows in the order the service wrote them. JavaScript objects put
// all-digit keys first (an all-digit name is a valid account name), so the order of result_data is read from the
// JSON text itself instead of from the parsed object (contract §6); the client never sorts rows itself.
import type { PageEnvelope } from "@/lib/schemas/page-query";

export interface ResultPage<T> {
  info: PageEnvelope<T>["result_info"];
  rows: T[];
}

/** Parses a list answer's JSON text into its info and its rows, in the text's order of result_data. */
export function parseResultPage<T>(text: string): ResultPage<T> {
  const envelope = JSON.parse(text) as PageEnvelope<T>;
  const data = envelope.result_data ?? {};
  const keys = objectKeysAt(text, "result_data");
  return { info: envelope.result_info, rows: keys.map((k) => data[k]!).filter((r) => r !== undefined) };
}

/** The keys, in text order, of the object that is the value of the top-level member `member`. */
export function objectKeysAt(text: string, member: string): string[] {
  let i = 0;
  let depth = 0;
  let topKey: string | null = null;
  const keys: string[] = [];
  // A plain scan of valid JSON (JSON.parse above has checked it): strings are skipped whole, so braces inside
  // them never count; a string right after "{" or "," at an object's level is a key.
  let expectKey = false;
  const inObject: boolean[] = [];
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (depth === 1) topKey = key;
        else if (depth === 2 && topKey === member) keys.push(key);
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === "{" || c === "[") {
      depth++;
      inObject.push(c === "{");
      expectKey = c === "{";
    } else if (c === "}" || c === "]") {
      depth--;
      inObject.pop();
      expectKey = false;
    } else if (c === ",") {
      expectKey = inObject[inObject.length - 1] === true;
    }
    i++;
  }
  return keys;
}
