// `npm run check:cycles`: fails when the project's modules import each other in a circle. Follows imports, type
// imports included (a type-only circle still ties the two modules' designs together), re-exports and dynamic imports
// among git's .ts/.tsx/.mjs files ("@/…" and relative specifiers). Comments are skipped.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.tsx", "*.mjs"], {
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => f && !f.startsWith("node_modules/") && !/\.d\.m?ts$/.test(f) && fs.existsSync(f));
const known = new Set(files);

function resolve(from, spec) {
  let target;
  if (spec.startsWith("@/")) target = spec.slice(2);
  else if (spec.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined;
  const candidates = [
    target,
    `${target}.ts`,
    `${target}.tsx`,
    `${target}.mjs`,
    target.replace(/\.js$/, ".ts"),
    `${target}/index.ts`,
  ];
  return candidates.find((c) => known.has(c));
}

const graph = new Map();
for (const file of files) {
  const text = fs
    .readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const edges = [];
  for (const m of text.matchAll(
    /^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm,
  )) {
    const target = resolve(file, m[1] ?? m[2] ?? m[3]);
    if (target) edges.push(target);
  }
  graph.set(file, edges);
}

const state = new Map();
const stack = [];
const cycles = [];
function visit(file) {
  state.set(file, "open");
  stack.push(file);
  for (const next of graph.get(file)) {
    if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, "done");
}
for (const file of files) if (!state.has(file)) visit(file);

if (cycles.length) {
  console.error(`Import cycles:\n${cycles.join("\n")}`);
  process.exitCode = 1;
} else console.log(`No import cycles among ${files.length} modules.`);
