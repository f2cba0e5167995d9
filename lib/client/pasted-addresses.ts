// Addresses pasted into a list's member field, as postmasters paste them: one a line (a spreadsheet's column), or a
// mail program's To: line ("Jan Nowak <jan@example.com>, "Nowak, Anna" <anna@example.com>; ..."). Entries are
// separated by line breaks, commas and semicolons outside quotes and angle brackets; a display name is dropped for
// the address in its brackets. An entry of whitespace-separated addresses only ("a@x.pl b@y.pl") is those addresses;
// any other entry stays whole, so nothing valid is cut into pieces and what is not an address is reported as typed.
import { isEmail } from "@/lib/schemas/common";

export interface PastedAddresses {
  /** The addresses found, lowercase, in their order, each once. */
  addresses: string[];
  /** The entries that are not addresses, trimmed, as they were pasted. */
  invalid: string[];
}

/** The entries of `text`: split at line breaks, commas and semicolons outside "quotes" and <brackets>. */
export function splitEntries(text: string): string[] {
  const entries: string[] = [];
  let current = "";
  let quoted = false;
  let bracketed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === "\\" && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (c === '"' && !bracketed) quoted = !quoted;
    else if (c === "<" && !quoted) bracketed = true;
    else if (c === ">" && !quoted) bracketed = false;
    // A line break ends an entry even inside an unclosed quote or bracket: a stray '"' must not join two lines.
    if (c === "\n" || c === "\r" || ((c === "," || c === ";") && !quoted && !bracketed)) {
      entries.push(current);
      current = "";
      quoted = bracketed = false;
      continue;
    }
    current += c;
  }
  entries.push(current);
  return entries.map((e) => e.trim()).filter(Boolean);
}

/** The address an entry stands for, or null: `address`, `<address>` or `Display Name <address>`. */
function entryAddress(entry: string): string | null {
  const named = /^(?:"(?:[^"\\]|\\.)*"|[^"<>]*)\s*<([^<>\s]+)>$/.exec(entry);
  const address = (named ? named[1]! : entry).toLowerCase();
  return isEmail(address) ? address : null;
}

export function parsePastedAddresses(text: string): PastedAddresses {
  const addresses: string[] = [];
  const invalid: string[] = [];
  for (const entry of splitEntries(text)) {
    const one = entryAddress(entry);
    if (one) {
      addresses.push(one);
      continue;
    }
    const words = entry.split(/\s+/);
    const each = words.length > 1 ? words.map(entryAddress) : [];
    if (each.length > 0 && each.every((a) => a !== null)) addresses.push(...each);
    else invalid.push(entry);
  }
  return { addresses: [...new Set(addresses)], invalid };
}
