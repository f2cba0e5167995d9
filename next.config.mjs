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
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  typedRoutes: false,
};

export default nextConfig;
