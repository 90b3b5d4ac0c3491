import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { htmlLanguage, localeOfRequest } from "@/lib/platform/locale";
import "./globals.css";

export const metadata: Metadata = { title: "Sandpiper sandbox payments", description: "Sandbox payment orchestration" };
export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/**
 * Every page's `<html>`: English, left to right, except a customer page in Arabic (`lang="ar" dir="rtl"`), whose
 * language proxy.ts chose (lib/platform/locale.ts; docs/decisions/0210-customer-pages-in-arabic-and-english.md). A
 * static page reads no request headers and stays English.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const { lang, dir } = htmlLanguage(localeOfRequest(await headers()));
  return (
    <html lang={lang} dir={dir}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
