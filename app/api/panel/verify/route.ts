// The confirmation page's "Sign in" button (/sign-in/verify): spends a mailed sign-in link's
// token for a same-origin POST only. server/sign-in/login-link.ts.
import { confirmLoginLink } from "@/server/sign-in/login-link";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { confirmLoginLink as POST };
