// The panel route handlers' shared answers live in server/auth/panel-response.ts.
export { clearPanelCookie, endPanelSession, PRIVATE_REDIRECT, seeOther, setPanelCookie } from "@/server/auth/panel-response";
