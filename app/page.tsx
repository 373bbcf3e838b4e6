import { redirect } from "next/navigation";

// The panel opens on the businesses (the Overview page arrives later).
export default function Home(): never {
  redirect("/businesses");
}
