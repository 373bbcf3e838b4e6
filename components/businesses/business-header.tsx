// The top of every section of a business's page (/businesses/<id> and its tabs): the way back
// to the list, the business's name, its reporting currency, archived state and creation day.
import type { ReactNode } from "react";
import type { TBusiness } from "@/server/businesses/business.schema";
import { BackLink, PageHeader } from "../panel/page-header";
import { DateTime } from "../panel/preferences";
import { StatusPill } from "../ui/status-pill";

export function BusinessHeader({ business, actions }: { business: TBusiness; actions?: ReactNode }) {
  return (
    <>
      <BackLink href="/businesses">Businesses</BackLink>
      <PageHeader
        title={business.name}
        meta={
          <>
            <span className="badge" title="Reporting currency">
              {business.currency}
            </span>
            {business.status === "archived" ? <StatusPill status="archived" /> : null}
            <span>
              Created <DateTime iso={business.created_at} />
            </span>
          </>
        }
        actions={actions}
      />
    </>
  );
}
