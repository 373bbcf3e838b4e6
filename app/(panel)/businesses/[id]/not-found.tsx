import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { BuildingIcon } from "@/components/ui/icons";

export default function BusinessNotFound() {
  return (
    <div className="page">
      <div className="card">
        <EmptyState icon={<BuildingIcon />} title="Business not found">
          It may have been removed, or the link is wrong. <Link href="/businesses">Back to your businesses</Link>
        </EmptyState>
      </div>
    </div>
  );
}
