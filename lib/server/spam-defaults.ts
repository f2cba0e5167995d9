// The server's defaults of the three spam switches: what the policy service applies where domain and account say -1,
// and what the API reports as spam_*_default.
import type { SpamDefaults } from "@/lib/schemas/spam";
import { env } from "./env";

export function spamDefaults(): SpamDefaults {
  const e = env();
  return {
    rbl: e.SPAM_RBL_DEFAULT === "1" ? 1 : 0,
    spf: e.SPAM_SPF_DEFAULT === "1" ? 1 : 0,
    greylist: e.SPAM_GREYLIST_DEFAULT === "1" ? 1 : 0,
  };
}
