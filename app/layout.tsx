// Root layout: <html lang> and the tab title from the locale cookie, Tailwind, and the client providers.
import type { Viewport } from "next";
import type { ReactNode } from "react";
import { panelMetadata, requestLocale } from "@/lib/i18n/server";
import { Providers } from "./providers";
import "./globals.css";

// In the request's language (the `locale` cookie), as every page's own title (pageMetadata).
export const generateMetadata = panelMetadata;

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
