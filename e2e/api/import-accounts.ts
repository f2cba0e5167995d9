// Imports accounts straight into a test database from a process of its own, the way a bulk migration would while
// the servers run: one transaction, every account with the domain postmaster's password hashes (so that the
// import costs no scrypt). Run with the react-server condition, like the CLI:
//   DATABASE_PATH=... node --conditions=react-server --import tsx e2e/api/import-accounts.ts <domain> <count> <prefix>
import { getDb } from "@/db/client";
import { searchKey } from "@/lib/server/resources/page";

const [domain, countText, prefix] = process.argv.slice(2);
const count = Number(countText);
const sqlite = getDb().$client;
const source = sqlite
  .prepare(
    `SELECT a.domain_id, a.password_hash, a.mail_password_hash FROM accounts a JOIN domains d ON d.id = a.domain_id
     WHERE d.name = ? AND a.name = 'postmaster'`,
  )
  .get(domain) as { domain_id: number; password_hash: string; mail_password_hash: string };
const insert = sqlite.prepare(
  `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash, mail_password_hash)
   VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
);
sqlite.transaction(() => {
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${String(i).padStart(5, "0")}`;
    const description = `Imported ${i}`;
    insert.run(
      source.domain_id,
      name,
      `${name}@${domain}`,
      description,
      searchKey(name, description),
      source.password_hash,
      source.mail_password_hash,
    );
  }
})();
sqlite.close();
