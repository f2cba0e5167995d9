// Runs after `next build` (`npm run build`): marks the JavaScript that pages load first for eager compilation with
// V8's explicit compile hint (`//# allFunctionsCalledOnLoad` on the file's first line; Chrome 136 and later).
// Without it V8 compiles each function on the main thread when it is first called; the framework's and the pages'
// startup code is almost all called on load, and marked it is compiled on a background thread while it downloads.
// On a throttled phone that takes a good share of the table page's blocking time off.
// Only the first-load files are marked (the framework's root files and each route's entry files, from the build's
// manifests): code loaded on demand (bulk create, the forms) is left to lazy compilation.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

const HINT = "//# allFunctionsCalledOnLoad\n";
const dist = path.resolve(process.env.NEXT_DIST_DIR ?? ".next");

/** The client files of every route's first load: the root main files and each route's entry files. */
function firstLoadFiles() {
  const files = new Set(JSON.parse(fs.readFileSync(path.join(dist, "build-manifest.json"), "utf8")).rootMainFiles);
  const manifests = fs
    .readdirSync(path.join(dist, "server/app"), { recursive: true })
    .filter((f) => String(f).endsWith("_client-reference-manifest.js"));
  for (const manifest of manifests) {
    // Each assigns globalThis.__RSC_MANIFEST[route] = {..., entryJSFiles: {segment: [file, ...]}}.
    const context = {};
    vm.runInNewContext(fs.readFileSync(path.join(dist, "server/app", String(manifest)), "utf8"), context);
    for (const route of Object.values(context.__RSC_MANIFEST ?? {})) {
      for (const list of Object.values(route.entryJSFiles ?? {})) for (const file of list) files.add(file);
    }
  }
  return [...files].filter((f) => f.endsWith(".js"));
}

const files = firstLoadFiles();
if (files.length === 0) throw new Error(`compile-hints: no first-load files found in ${dist}`);
let marked = 0;
for (const file of files) {
  const full = path.join(dist, file);
  const text = fs.readFileSync(full, "utf8");
  if (text.startsWith(HINT)) continue;
  fs.writeFileSync(full, HINT + text);
  marked++;
}
console.log(`compile-hints: ${files.length} first-load files, ${marked} newly marked for eager compilation`);
