"use client";
// The sidebar's top (the brand) and its menu (the navigation and the account). On a wide screen
// the menu is always there; on a phone (globals.css, max-width 760px) the sidebar is a bar with a
// "Menu" button that opens the menu over the page, so the page never moves. The button says
// whether the menu is open (aria-expanded); opening moves focus to the menu's first link,
// Escape or a click outside closes it (Escape returns focus to the button), and so does going
// to another page. `actions` (the notification bell) sit in the bar beside the brand, so a phone
// sees them with the menu closed.
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { CloseIcon, MenuIcon } from "../ui/icons";

const MENU_ID = "panel-menu";

export function NavMenu({ brand, actions, children }: { brand: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  // A link followed: the new page shows with the menu closed.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>("a, button")?.focus();
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  return (
    <>
      <div className="sidebar-bar">
        {brand}
        {actions}
        <button
          ref={buttonRef}
          type="button"
          className="button button-secondary nav-toggle"
          aria-expanded={open}
          aria-controls={MENU_ID}
          onClick={() => setOpen((shown) => !shown)}
        >
          {open ? <CloseIcon /> : <MenuIcon />}
          Menu
        </button>
      </div>
      <div ref={menuRef} id={MENU_ID} className="sidebar-menu" data-open={open ? "" : undefined}>
        {children}
      </div>
    </>
  );
}
