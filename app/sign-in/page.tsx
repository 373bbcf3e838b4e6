import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { BrandMark } from "@/components/panel/brand";
import { SIGN_IN_MESSAGES } from "@/components/sign-in/messages";
import { SignInForm } from "@/components/sign-in/sign-in-form";
import { getPanelSession } from "@/server/auth/panel-session";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { actor } = await getPanelSession();
  if (actor.type === "owner") redirect("/businesses");

  const code = (await searchParams).error;
  const initialError = typeof code === "string" ? (SIGN_IN_MESSAGES[code] ?? SIGN_IN_MESSAGES.internal_error ?? null) : null;

  return (
    <main className="auth">
      <div className="auth-panel">
        <div className="auth-brand">
          <BrandMark />
          <div>
            <h1>Sign in to your back office</h1>
            <p>Your businesses, projects and money in one place.</p>
          </div>
        </div>
        <div className="card auth-card">
          <SignInForm initialError={initialError} />
          <p className="auth-footnote">Email sign-in with a one-time link is coming soon.</p>
        </div>
      </div>
    </main>
  );
}
