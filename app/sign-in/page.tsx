import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/panel/auth-shell";
import { EmailSignInForm } from "@/components/sign-in/email-sign-in-form";
import { LINK_FALLBACK_MESSAGE, LINK_MESSAGES, SIGN_IN_MESSAGES } from "@/components/sign-in/messages";
import { SignInForm } from "@/components/sign-in/sign-in-form";
import { FormAlert } from "@/components/ui/field";
import { MailIcon } from "@/components/ui/icons";
import { LOGIN_TOKEN_TTL_MS } from "@/server/auth/lifetimes";
import { getPanelSession, PANEL_HOME } from "@/server/auth/panel-session";
import { getEnv } from "@/server/env";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const { actor } = await getPanelSession();
  if (actor.type === "owner") redirect(PANEL_HOME);

  const params = await searchParams;
  const staticMode = getEnv().AUTH_MODE === "static";
  const sent = first(params.sent) === "1";
  const code = first(params.error);

  // Failure codes of the owner token form belong beside its field (and open it); anything else
  // is about the email link.
  const tokenError = code && staticMode && code in SIGN_IN_MESSAGES ? (SIGN_IN_MESSAGES[code] ?? null) : null;
  const linkError = code && !tokenError ? (LINK_MESSAGES[code] ?? SIGN_IN_MESSAGES[code] ?? LINK_FALLBACK_MESSAGE) : null;

  return (
    <AuthShell title="Sign in to your back office" lead="Your businesses, projects and money in one place.">
      <div className="card auth-card">
        {sent ? (
          <div className="auth-sent" role="status">
            <div className="empty-icon">
              <MailIcon />
            </div>
            <h2>Check your inbox</h2>
            <p>
              We sent you a sign-in link. Open it in this browser to sign in: it works once, for {LOGIN_TOKEN_TTL_MS / 60_000}{" "}
              minutes.
            </p>
            <p className="muted">
              Nothing arrived after a minute? Look in your spam folder, or <Link href="/sign-in">send another link</Link>.
            </p>
          </div>
        ) : (
          <div className="form">
            <FormAlert message={linkError} />
            <EmailSignInForm initialError={null} autoFocus={!tokenError} />
          </div>
        )}
        {staticMode && !sent ? (
          <details className="disclosure" open={tokenError ? true : undefined}>
            <summary>Use an owner token</summary>
            <div className="disclosure-body">
              <SignInForm initialError={tokenError} autoFocus={Boolean(tokenError)} />
            </div>
          </details>
        ) : null}
      </div>
    </AuthShell>
  );
}
