// Auth.js's endpoints for the panel (/api/auth/*: csrf, signin/nodemailer, callback/nodemailer,
// session, signout). Configuration: server/auth/authjs.ts.
import { handlers } from "@/server/auth/authjs";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST } = handlers;
