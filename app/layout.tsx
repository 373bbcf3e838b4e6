import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Finance back office", template: "%s · Finance back office" },
  description: "Businesses, projects and money, kept in one place.",
};

export const viewport: Viewport = { themeColor: "#2f5bd3" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so Next can put this response's CSP nonce (proxy.ts) on
  // its scripts; a page prerendered at build time would carry none and its scripts be blocked.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
