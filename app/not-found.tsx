import Link from "next/link";
import { BrandMark } from "@/components/panel/brand";

export default function NotFound() {
  return (
    <main className="auth">
      <div className="auth-panel">
        <div className="auth-brand">
          <BrandMark />
          <div>
            <h1>Page not found</h1>
            <p>
              There is nothing at this address. <Link href="/businesses">Go to your businesses</Link>
            </p>
          </div>
        </div>
      </div>
    </main>
  );
}
