// The panel route handlers' shared answers live in server/sign-in/panel-response.ts.
export { clearPanelCookie, endPanelSession, PRIVATE_REDIRECT, seeOther, setPanelCookie } from "@/server/sign-in/panel-response";
