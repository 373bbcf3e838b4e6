import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Finance back office", template: "%s · Finance back office" },
  description: "Businesses, projects and money, kept in one place.",
};

export const viewport: Viewport = { themeColor: "#2f5bd3" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
