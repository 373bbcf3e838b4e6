// The signed-in panel: left navigation, the notification bell, the owner's email, sign-out, and the tRPC client.
// Every page under here is for the owner only; anyone else is sent to the sign-in page.
import Link from "next/link";
import type { ReactNode } from "react";
import { BrandMark } from "@/components/panel/brand";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { NavMenu } from "@/components/panel/nav-menu";
import { PreferencesProvider } from "@/components/panel/preferences";
import { SidebarNav } from "@/components/panel/sidebar-nav";
import { LogOutIcon } from "@/components/ui/icons";
import { TRPCReactProvider } from "@/lib/trpc/client";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

const NO_SCRIPT_MENU =
  ".sidebar-menu { display: flex !important; position: static !important; box-shadow: none !important; }" +
  " .sidebar-bar .nav-toggle { display: none !important; }";

export default async function PanelLayout({ children }: { children: ReactNode }) {
  const me = await getOwnerMe();

  return (
    <TRPCReactProvider>
      <PreferencesProvider value={{ locale: me.locale, timezone: me.timezone }}>
        <div className="shell">
          <aside className="sidebar">
            {/* Without JavaScript the menu button cannot open anything: the phone shows the menu as a list. */}
            <noscript>
              <style>{NO_SCRIPT_MENU}</style>
            </noscript>
            <NavMenu
              actions={<NotificationBell initialUnread={me.unread_notifications} />}
              brand={
                <Link href="/overview" className="brand">
                  <BrandMark />
                  <span className="brand-name">
                    Finance
                    <small>Back office</small>
                  </span>
                </Link>
              }
            >
              <SidebarNav waitlistReader={me.waitlist_reader} />
              <div className="sidebar-footer">
                <div className="account">
                  <span className="avatar" aria-hidden="true">
                    {me.email.charAt(0)}
                  </span>
                  <span className="account-text">
                    <span className="account-label">Signed in as</span>
                    <span className="account-email" title={me.email} data-testid="owner-email">
                      {me.email}
                    </span>
                  </span>
                </div>
                <form method="post" action="/api/panel/sign-out">
                  <button type="submit" className="button button-secondary button-block">
                    <LogOutIcon />
                    Sign out
                  </button>
                </form>
              </div>
            </NavMenu>
          </aside>
          <main className="main" id="main" tabIndex={-1}>
            {children}
          </main>
        </div>
      </PreferencesProvider>
    </TRPCReactProvider>
  );
}
