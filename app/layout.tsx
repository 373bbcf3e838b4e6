import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Finance back office", template: "%s · Finance back office" },
  description: "Businesses, projects and money, kept in one place.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#2f5bd3" },
    { media: "(prefers-color-scheme: dark)", color: "#0e121b" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so Next can put this response's CSP nonce (proxy.ts) on
  // its scripts; a page prerendered at build time would carry none and its scripts be blocked.
  await connection();
  return (
    <html lang="en">
      <body>
        {/* The first stop for a keyboard: past the navigation, straight to the page (every page's <main id="main">). */}
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
