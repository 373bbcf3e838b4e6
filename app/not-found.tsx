import Link from "next/link";
import { AuthShell } from "@/components/panel/auth-shell";

export default function NotFound() {
  return (
    <AuthShell
      title="Page not found"
      lead={
        <>
          There is nothing at this address. <Link href="/overview">Go to the Overview</Link>
        </>
      }
    />
  );
}
