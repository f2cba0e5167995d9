// Tailwind 4 finds class names by itself; this file (loaded by app/globals.css through @config) pins the sources
// and the panel's font stack.
import type { Config } from "tailwindcss";

const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}", "./lib/**/*.{ts,tsx}"],
  theme: {
    extend: {
      fontFamily: {
        sans: ["system-ui", "-apple-system", "Segoe UI", "Roboto", "Noto Sans", "Helvetica", "Arial", "sans-serif"],
      },
    },
  },
};

export default config;
