// Prints the demo's TOTP_ENCRYPTION_KEY (`npm run demo`): 32 random bytes made once and kept in data/demo-totp-key
// beside the demo database, so secrets set up in an earlier demo run still decrypt. Production sets its own key.
import { randomBytes } from "node:crypto";
import fs from "node:fs";

const file = "data/demo-totp-key";
if (!fs.existsSync(file)) {
  fs.mkdirSync("data", { recursive: true });
  fs.writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
}
process.stdout.write(fs.readFileSync(file, "utf8").trim());
