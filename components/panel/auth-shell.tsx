// The pages outside the panel (sign-in, not found): the brand, a heading and a line under it,
// then whatever the page holds.
import type { ReactNode } from "react";
import { BrandMark } from "./brand";

export function AuthShell(props: { title: string; lead: ReactNode; children?: ReactNode }) {
  return (
    <main className="auth" id="main" tabIndex={-1}>
      <div className="auth-panel">
        <div className="auth-brand">
          <BrandMark />
          <div>
            <h1>{props.title}</h1>
            <p>{props.lead}</p>
          </div>
        </div>
        {props.children}
      </div>
    </main>
  );
}
