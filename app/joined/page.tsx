import type { Metadata } from "next";
import Link from "next/link";
import { AuthShell } from "@/components/panel/auth-shell";
import { CheckIcon } from "@/components/ui/icons";

export const metadata: Metadata = { title: "You are on the list" };
export const dynamic = "force-dynamic";

// Where the waitlist form lands without JavaScript (app/api/waitlist/route.ts). It says the same
// for a new address and for one already on the list: whether an address is listed is never told.
export default function JoinedPage() {
  return (
    <AuthShell title="You are on the list" lead="Thank you for your interest in the finance back office.">
      <div className="card auth-card">
        <div className="auth-sent" role="status">
          <div className="empty-icon">
            <CheckIcon />
          </div>
          <h2>Thank you</h2>
          <p>We will write to you at the address you gave when there is room for you. Nothing else to do until then.</p>
          <p className="muted">
            <Link href="/">Back to the front page</Link>
          </p>
        </div>
      </div>
    </AuthShell>
  );
}
