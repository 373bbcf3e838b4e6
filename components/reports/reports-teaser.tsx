// The Overview's and a business page's way to the Reports page: the net of the last 12 months
// and the current one as a trend, the total, and the link (issue 36). Its figures are the
// report's own (GET /v1/reports/profit-and-loss, by type).
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import type { TProfitAndLoss } from "@/server/reports/report.schema";
import { formatCalendarDay } from "../overview/figures";
import { CardSection } from "../ui/card";
import { Sparkline } from "./sparkline";

export function ReportsTeaser(props: { report: TProfitAndLoss; locale: string; href: string; headingId: string }) {
  const { report } = props;
  const net = report.totals.net_minor;
  const money = (minor: number) => formatMinor(minor, report.currency, props.locale);
  return (
    <CardSection headingId={props.headingId} title="Last 12 months" description="Net (money in less money out) month by month.">
      <div className="card-body reports-teaser" data-testid="reports-teaser">
        <Sparkline values={net} width={160} height={32} />
        <p>
          <span className={report.totals.net_total_minor < 0 ? "money-out" : "money-in"}>
            {money(report.totals.net_total_minor)}
          </span>{" "}
          net since {formatCalendarDay(report.from, props.locale)}; this month {money(net.at(-1) ?? 0)}.
        </p>
        <Link href={props.href}>Open the reports</Link>
      </div>
    </CardSection>
  );
}
