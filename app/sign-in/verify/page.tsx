// Where a mailed sign-in link lands (both the REST mail's and the panel's Auth.js mail): it
// says which address the link signs in as and asks for a click. Opening it spends nothing (a
// foreign page navigating a browser here, or a mail scanner, signs no one in); the button
// POSTs the link to /api/panel/verify, which signs in only a request from this site
// (server/sign-in/login-link.ts). A used, expired or unknown link goes straight to the sign-in
// page, which offers a new one.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/panel/auth-shell";
import { MailIcon } from "@/components/ui/icons";
import { invalidLinkCode, loginLinkEmail, loginLinkFrom } from "@/server/sign-in/login-link";
import { getPanelSession, SIGN_IN_PATH } from "@/server/auth/panel-session";

// same-origin, not no-referrer: this URL holds the token, and no other site may see it in a
// Referer; but with no-referrer browsers send `Origin: null` on the button's POST, which the
// CSRF rule (rightly) refuses.
export const metadata: Metadata = { title: "Confirm sign-in", referrer: "same-origin", robots: { index: false } };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

function paramsOf(search: TSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  return params;
}

export default async function VerifyPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const link = loginLinkFrom(paramsOf(await searchParams));
  const { db, actor } = await getPanelSession();
  const email = link ? await loginLinkEmail(db, link) : null;
  if (!link || !email) redirect(`${SIGN_IN_PATH}?error=${invalidLinkCode(link)}`);

  return (
    <AuthShell title="Sign in to your back office" lead="Your businesses, projects and money in one place.">
      <div className="card auth-card">
        <form className="auth-sent" method="post" action="/api/panel/verify">
          <div className="empty-icon">
            <MailIcon />
          </div>
          <h2>Confirm your sign-in</h2>
          <p>
            You are signing in as <strong>{email}</strong>.
          </p>
          <input type="hidden" name="token" value={link.token} />
          {link.kind === "authjs" ? (
            <>
              <input type="hidden" name="email" value={link.email} />
              {link.callbackUrl ? <input type="hidden" name="callbackUrl" value={link.callbackUrl} /> : null}
            </>
          ) : null}
          <button type="submit" className="button button-primary button-block">
            Sign in
          </button>
          <p className="muted">
            {actor.type === "owner" ? "This browser is signed in already: signing in replaces that session. " : null}
            Did not ask for this link? Close this page: nothing happens without the button.
          </p>
        </form>
      </div>
    </AuthShell>
  );
}
