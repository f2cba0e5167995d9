// The Chromium the panel tests drive (Playwright and Lighthouse alike): Debian's (.ci/system-packages.sh), without
// its sandbox (CI runs as root) and without the background traffic that would reach for the Internet.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
