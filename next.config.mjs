import { nextDistDir } from "./lib/config.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native addon, pg has an optional native part: load both from node_modules at run time.
  serverExternalPackages: ["better-sqlite3", "pg"],
  poweredByHeader: false,
  // `npm run typecheck` checks the whole project (tests included) before the build; no second pass here.
  typescript: { ignoreBuildErrors: true },
  // /api/v1 answers JSON everywhere: no redirect pages for a trailing slash.
  skipTrailingSlashRedirect: true,
  // Parallel builds (tests, benchmarks) each get their own output folder.
  distDir: nextDistDir(),
  typedRoutes: false,
  experimental: {
    // The panel's stylesheet (~7 kB gzip) goes into each page's <head> (with the CSP nonce) instead of a render-blocking
    // request: the first paint no longer waits for it, so it comes before the scripts' work.
    inlineCss: true,
  },
};

export default nextConfig;
