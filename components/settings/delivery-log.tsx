"use client";
// The recent delivery attempts: every webhook and email attempt recorded on the latest
// notifications (their `delivered` lists), newest first, with its result, error and attempt number.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/lib/trpc/client";
import { messageOf } from "@/lib/trpc/errors";
import { deliveryErrorText, deliveryRows, type TDeliveryRow } from "../notifications/notification-words";
import { DateTime } from "../panel/preferences";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { HistoryIcon } from "../ui/icons";

/** How many of the latest notifications the log reads its attempts from. */
export const DELIVERY_LOG_NOTIFICATIONS = 50;
/** At most this many attempts are listed. */
const ROWS_SHOWN = 30;

const CHANNEL_LABELS: Record<TDeliveryRow["channel"], string> = { webhook: "Webhook", email: "Email" };

export function DeliveryLog() {
  const trpc = useTRPC();
  const latest = useQuery(trpc.notifications.find.queryOptions({ limit: DELIVERY_LOG_NOTIFICATIONS }));
  const rows = latest.data ? deliveryRows(latest.data.data).slice(0, ROWS_SHOWN) : [];
  const items = rows.map((row) => ({ ...row, id: row.key }));

  return (
    <section className="card" aria-labelledby="delivery-log-heading">
      <CardHeader
        headingId="delivery-log-heading"
        title="Recent deliveries"
        description={`Webhook and email attempts for your latest ${DELIVERY_LOG_NOTIFICATIONS} notifications, newest first.`}
        wrap
      >
        <ActionButton look="button-secondary" pending={latest.isFetching} onClick={() => void latest.refetch()}>
          Refresh
        </ActionButton>
      </CardHeader>
      {latest.isError ? (
        <div className="card-body">
          <FormAlert message={`The deliveries could not be loaded. ${messageOf(latest.error)}`} />
        </div>
      ) : latest.isPending ? (
        <div className="card-body muted">Loading…</div>
      ) : items.length === 0 ? (
        <EmptyState icon={<HistoryIcon />} title="No deliveries yet">
          When a notification is sent to your webhook or by email, every attempt is listed here with its result. Set a webhook URL
          above, or turn on email; the notifications themselves are always under <Link href="/notifications">Notifications</Link>.
        </EmptyState>
      ) : (
        <DataTable
          compact
          stack
          label="Recent deliveries (scrolls sideways)"
          items={items}
          rowProps={(row) => ({ "data-status": row.status })}
          columns={[
            { header: "When", cellClassName: "cell-date", cell: (row) => <DateTime iso={row.at} withTime /> },
            { header: "Channel", cell: (row) => CHANNEL_LABELS[row.channel] },
            {
              header: "Result",
              cell: (row) => (
                <span className={`pill ${row.status === "delivered" ? "pill-success" : "pill-danger"}`}>
                  {row.status === "delivered" ? "Delivered" : "Failed"}
                </span>
              ),
            },
            {
              header: "Error",
              cell: (row) =>
                row.error ? (
                  <>
                    <span>{deliveryErrorText(row.error)}</span>
                    <span className="cell-sub mono">{row.error}</span>
                  </>
                ) : (
                  <span className="muted">—</span>
                ),
            },
            { header: "Attempt", cellClassName: "mono", cell: (row) => (row.attempt === null ? "—" : `#${row.attempt}`) },
            { header: "Notification", cell: (row) => <span className="delivery-title">{row.title}</span> },
          ]}
        />
      )}
    </section>
  );
}
