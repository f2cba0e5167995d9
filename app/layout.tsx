// Root layout: <html lang> from the locale cookie, Tailwind, and the client providers.
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { requestLocale } from "@/lib/i18n/server";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Panel poczty", template: "%s · Panel poczty" },
  description: "Administracja kontami pocztowymi",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await requestLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen">
        <Providers locale={locale}>{children}</Providers>
      </body>
    </html>
  );
}
