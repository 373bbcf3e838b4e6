import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { BotIcon } from "@/components/ui/icons";

export default function AgentNotFound() {
  return (
    <div className="page">
      <div className="card">
        <EmptyState icon={<BotIcon />} title="Agent not found">
          It may belong to another account, or the link is wrong. <Link href="/agents">Back to your agents</Link>
        </EmptyState>
      </div>
    </div>
  );
}
