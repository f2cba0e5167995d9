// Bulk create's input: pasted lines or a CSV file, one account a line: name; password (empty: generate one);
// capacity in MB (empty: the default); description. Fields are separated by ";" (or "," when a line has no ";"),
// may be quoted ("a;b", with "" for a quote); a first line naming the columns is skipped, and so are lines with
// no value in any field (Excel ends a sheet's CSV with `;;;` rows). Each row is checked
// with the account's own rules before anything is sent. Loaded only with the bulk-create dialog.
import { accountFields } from "@/lib/schemas/account";
import type { ErrorKey } from "@/lib/errors/catalog";
import { generatePassword, isAccountName, passwordSchema } from "@/lib/schemas/common";

export const DEFAULT_CAPACITY = 1024;

export interface BulkRow {
  /** 1-based line of the input. */
  line: number;
  name: string;
  password: string;
  generated: boolean;
  capacity: number;
  description: string;
  /**
   * The first rule the row breaks, or null when it may be sent. "columnsSwapped": the capacity column holds text and
   * the description column a number, the order of the account form and the table (description before capacity).
   */
  problem: ErrorKey | "duplicateInInput" | "columnsSwapped" | null;
}

/**
 * Splits one line into fields (quotes and doubled quotes as in CSV). With `max`, the last field is the rest of the
 * line as written, separators included: a description "Kowalski, Jan" on a line separated by commas stays whole.
 */
export function splitLine(line: string, max = Infinity): string[] {
  const sep = line.includes(";") ? ";" : ",";
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (!quoted && out.length === max - 1 && field === "") {
      const rest = line.slice(i).trim();
      out.push(/^".*"$/s.test(rest) ? rest.slice(1, -1).replace(/""/g, '"') : rest);
      return out;
    }
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (c === sep) {
      out.push(field.trim());
      field = "";
    } else field += c;
  }
  out.push(field.trim());
  return out;
}

const HEADER_NAMES = new Set(["name", "nazwa", "login", "email", "e-mail", "konto", "account", "adres", "address"]);

/** A line with no value in any field: empty, or only separators and empty quotes (Excel's `;;;` rows). */
const isBlankLine = (line: string) => splitLine(line).every((f) => f === "");

/** The rows of the input with their checks; `domain` lets a line give a full address of that domain. */
export function parseRows(text: string, domain: string, generate: () => string = generatePassword): BulkRow[] {
  const lines = text.split(/\r?\n/);
  const rows: BulkRow[] = [];
  const seen = new Set<string>();
  const firstLine = lines.findIndex((l) => !isBlankLine(l));
  lines.forEach((raw, i) => {
    if (isBlankLine(raw)) return;
    const fields = splitLine(raw, 4);
    if (rows.length === 0 && i === firstLine && HEADER_NAMES.has(fields[0]!.toLowerCase())) return;
    let name = fields[0]!.toLowerCase();
    if (name.endsWith(`@${domain}`)) name = name.slice(0, -domain.length - 1);
    const given = fields[1] ?? "";
    const password = given === "" ? generate() : given;
    const capacityText = fields[2] ?? "";
    const capacity = accountFields.capacity.schema.safeParse(
      capacityText === "" ? String(DEFAULT_CAPACITY) : capacityText,
    );
    const description = accountFields.description.schema.safeParse(fields[3] ?? "");
    let problem: BulkRow["problem"] = null;
    if (!isAccountName(name)) problem = "invalidAccountName";
    else if (seen.has(name)) problem = "duplicateInInput";
    else if (!passwordSchema().safeParse(password).success) problem = "invalidPassword";
    else if (!capacity.success)
      problem = accountFields.capacity.schema.safeParse(fields[3] ?? "").success ? "columnsSwapped" : "invalidCapacity";
    else if (!description.success) problem = "invalidDescription";
    seen.add(name);
    rows.push({
      line: i + 1,
      name,
      password,
      generated: given === "",
      capacity: capacity.success ? capacity.data : 0,
      description: description.success ? description.data : "",
      problem,
    });
  });
  return rows;
}

/** The generated passwords as a CSV file's text (address;password), for the one download. */
export function passwordsCsv(rows: { name: string; password: string }[], domain: string): string {
  return ["address;password", ...rows.map((r) => `${r.name}@${domain};${r.password}`)].join("\r\n") + "\r\n";
}

/** Rows whose name the domain already holds get the service's "name taken" problem (the first rule they break). */
export function markTaken(rows: BulkRow[], taken: readonly string[]): BulkRow[] {
  const set = new Set(taken);
  return rows.map((r) => (!r.problem && set.has(r.name) ? { ...r, problem: "nameTaken" } : r));
}

/**
 * A CSV file's text: UTF-8 (a BOM dropped) when the bytes are valid UTF-8, otherwise Windows-1250, which is what
 * Excel saves "CSV" as on a Polish Windows. A file in some other 8-bit code page would come out as 1250's letters;
 * the dialog says which encoding it used so the preview's descriptions get a look.
 */
export function decodeCsvFile(bytes: Uint8Array): { text: string; encoding: "utf-8" | "windows-1250" } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1250").decode(bytes), encoding: "windows-1250" };
  }
}
