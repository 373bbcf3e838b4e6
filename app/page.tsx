import { redirect } from "next/navigation";
import { PANEL_HOME } from "@/server/auth/panel-session";

// The panel opens on the Overview (the sign-in page sends a visitor who is not signed in on).
export default function Home(): never {
  redirect(PANEL_HOME);
}
