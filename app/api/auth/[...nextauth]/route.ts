// Auth.js's endpoints for the panel (/api/auth/*: csrf, signin/nodemailer, session, signout).
// Its email callback (callback/nodemailer) is not served to browsers: a request for it goes
// to the confirmation page (server/sign-in/login-link.ts). Configuration: server/sign-in/authjs.ts.
import { authjsRoutes } from "@/server/sign-in/login-link";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST } = authjsRoutes;
