// The confirmation page's "Sign in" button (/sign-in/verify): spends a mailed sign-in link's
// token for a same-origin POST only. server/auth/login-link.ts.
import { confirmLoginLink } from "@/server/auth/login-link";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { confirmLoginLink as POST };
