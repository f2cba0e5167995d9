// The Chromiums the panel tests drive: Debian's (.ci/system-packages.sh), without their sandbox (CI runs as root)
// and without the background traffic that would reach for the Internet.
// Playwright drives the headless shell (package chromium-headless-shell, Playwright's own default for headless
// runs): the same Blink without the full browser's processes, about a quarter less time for the panel suite.
// Lighthouse scores in the full browser (`--headless=new`), the one users have.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
export const LIGHTHOUSE_CHROMIUM_PATH = process.env.LIGHTHOUSE_CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
