// Test data shared by the view's unit test and the real-mail test: the spam list that makes the longest Sieve script
// the API lets through.
import { SPAM_LIST_MAX_CHARACTERS } from "@/lib/schemas/common";

/**
 * 1,000 distinct domains whose lengths add up to SPAM_LIST_MAX_CHARACTERS: the most entries (each costs the script
 * its quotes and separator too) at the most characters.
 */
export function largestSpamList(tag: string): string[] {
  const each = Math.floor(SPAM_LIST_MAX_CHARACTERS / 1000);
  return Array.from({ length: 1000 }, (_, i) => `${tag}${i}-`.padEnd(each - 3, "x") + ".pl");
}
