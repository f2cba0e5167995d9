// The page of an address the panel does not have. Without it Next answers with its own 404 page: in English in the
// Polish panel, and styled by inline style attributes that the page's CSP refuses (a violation on every such load).
// Rendered on the server in the request's language, so a plain object per language.
import Link from "next/link";
import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import { pageMetadata, requestLocale } from "@/lib/i18n/server";

export const generateMetadata = () => pageMetadata("notFound");

const messages = {
  pl: {
    title: PAGE_TITLES.pl.notFound,
    text: "Adres jest błędny albo strona została usunięta.",
    back: "Przejdź do panelu",
  },
  en: {
    title: PAGE_TITLES.en.notFound,
    text: "The address is wrong or the page has been removed.",
    back: "Go to the panel",
  },
};

export default async function NotFound() {
  const t = messages[await requestLocale()];
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
      <div className="w-full max-w-sm rounded-lg border border-gray-300 bg-white p-6 shadow-sm">
        <h1 className="mb-2 text-xl font-semibold text-gray-900">{t.title}</h1>
        <p className="mb-4 text-sm text-gray-700">{t.text}</p>
        {/* "/" sends a session to its landing page and anyone else to the sign-in page. */}
        <Link href="/" className="link">
          {t.back}
        </Link>
      </div>
    </main>
  );
}
