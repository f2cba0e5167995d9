// temporary experiment (not committed)
import fs from "node:fs";
import path from "node:path";
import { BIG_DOMAIN } from "./seed";
const root = process.argv[2]!;
const file = process.argv[3]!;
const imp = (p: string) => import(path.join(root, p)) as Promise<Record<string, any>>;
const client = await imp("db/client.ts");
const flat = fs.existsSync(path.join(root, "lib/server/accounts.ts"));
const accounts = await imp(flat ? "lib/server/accounts.ts" : "lib/server/resources/accounts.ts");
const domains = await imp(flat ? "lib/server/domains.ts" : "lib/server/resources/domains.ts");
const db = client.openDatabase(file);
const domain = await domains.getDomainOrThrow(db, BIG_DOMAIN);
const parse = accounts.parseAccountListQuery;
const list = async (search: string, page: number) => {
  const q = new URLSearchParams({ search, page: String(page), size: "50", sort: "name" });
  return await (parse ? accounts.listAccounts(db, domain, parse(q, domain)) : accounts.listAccounts(db, domain, q));
};
for (let i = 0; i < 500; i++) await list(i % 2 ? "kowal" : "an", i % 5);
const t = performance.now();
const N = Number(process.env.N ?? 6000);
for (let i = 0; i < N; i++) await list(i % 2 ? "kowal" : "an", i % 5);
console.log(`${flat ? "old" : "new"}: ${((performance.now() - t) / N * 1000).toFixed(0)} us/call`);
