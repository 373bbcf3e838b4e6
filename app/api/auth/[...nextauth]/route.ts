// Auth.js's endpoints for the panel (/api/auth/*: csrf, signin/nodemailer, session, signout).
// Its email callback (callback/nodemailer) is not served to browsers: a request for it goes
// to the confirmation page (server/auth/login-link.ts). Configuration: server/auth/authjs.ts.
import { authjsRoutes } from "@/server/auth/login-link";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST } = authjsRoutes;
