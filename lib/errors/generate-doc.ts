// Writes docs/errors.md from the error catalog; with --check, fails when the file is not current.
import fs from "node:fs";
import path from "node:path";
import { errorCatalog } from "./catalog";

const file = path.join(process.cwd(), "docs", "errors.md");

export function renderErrorsDoc(): string {
  const rows = Object.entries(errorCatalog)
    .map(
      ([key, e]) =>
        `| ${e.code} | ${e.status} | ${e.category} | \`${key}\` | ${e.message} | ${e.messageEn} | ${e.condition.replaceAll("|", "\\|")} |`,
    )
    .join("\n");
  return `# API errors

Generated from \`lib/errors/catalog.ts\` by \`npm run docs:errors\`; \`npm run docs:check\` (part of \`npm test\`)
fails when this file is out of date. Do not edit by hand.

Every error body is \`{"code", "message", "category"}\`, plus \`source\` (the field or name at fault), \`attributes\`
and \`children\` (one error per failing name of a multi-name request) where useful. Validation errors answer with
HTTP 500, as the specification requires.

| code | HTTP | category | key | message (Polish, as sent) | English text (panel only) | raised when |
|---|---|---|---|---|---|---|
${rows}

Codes that the specification lists but this service never sends: 500, 500.101, 500.112, 500.116-500.120,
500.202-500.206. They stay reserved.
`;
}

const doc = renderErrorsDoc();
if (process.argv.includes("--check")) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  if (current !== doc) {
    console.error("docs/errors.md is out of date: run npm run docs:errors");
    process.exit(1);
  }
  console.log("docs/errors.md is current.");
} else {
  fs.writeFileSync(file, doc);
  console.log(`Wrote ${file}`);
}
