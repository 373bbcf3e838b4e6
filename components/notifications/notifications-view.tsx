"use client";
// The notifications inbox: newest first, each with its severity (word and icon), what happened,
// when, what became of what it is about (an approval since decided says so), and a link to the
// record. Filters: unread only, severity, kind (integration alerts, approvals, …). An item is marked read or unread in place (it stays in the
// list until the next refresh, so a wrong click can be undone); "Mark all read" marks every
// unread one created up to the moment the list was loaded.
import { useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { formErrorOf, messageOf } from "@/lib/trpc/errors";
import type { TNotification } from "@/server/notifications/notification.schema";
import { NOTIFICATIONS_PAGE_SIZE } from "../panel/page-size";
import { DateTime } from "../panel/preferences";
import { useCursorList, type TListPage } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { Field, FormAlert } from "../ui/field";
import { BellIcon, CheckIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import { Segmented } from "../ui/segmented";
import { kindLabel, NOTIFICATION_KINDS, refLink, resolutionText, SEVERITY_LABELS, type TSeverity } from "./notification-words";
import { SeverityBadge } from "./severity-badge";

type TShow = "all" | "unread";
type TFilters = { show: TShow; severity: TSeverity | ""; kind: string };
const NO_FILTERS: TFilters = { show: "all", severity: "", kind: "" };

const SHOW_OPTIONS = [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread" },
] as const;

type TNotificationPage = TListPage<TNotification>;

/** Puts the changed notification in every cached list page that holds it (lists and plain pages alike). */
function replaceIn(data: unknown, changed: TNotification): unknown {
  const swap = (page: TNotificationPage): TNotificationPage => ({
    ...page,
    data: page.data.map((item) => (item.id === changed.id ? changed : item)),
  });
  if (!data || typeof data !== "object") return data;
  if ("pages" in data) {
    const infinite = data as InfiniteData<TNotificationPage>;
    return { ...infinite, pages: infinite.pages.map(swap) };
  }
  if ("data" in data && Array.isArray((data as TNotificationPage).data)) return swap(data as TNotificationPage);
  return data;
}

export function NotificationsView({ initialPage }: { initialPage: TNotificationPage }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<TFilters>(NO_FILTERS);
  const [draft, setDraft] = useState<TFilters>(NO_FILTERS);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const code = filters.kind || undefined;
  const input = {
    limit: NOTIFICATIONS_PAGE_SIZE,
    ...(filters.show === "unread" ? { unread: true } : {}),
    ...(filters.severity ? { severity: filters.severity } : {}),
    ...(code ? { code } : {}),
  };
  const unfiltered = filters.show === "all" && !filters.severity && !code;
  const list = useCursorList({
    queryKey: trpc.notifications.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.notifications.find.query({ ...input, cursor }, { signal }),
    initialPage: unfiltered ? initialPage : null,
  });
  const listError = list.isError ? formErrorOf(list.error, ["code", "severity"]) : null;

  const refreshCount = () => queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() });

  const update = useMutation(
    trpc.notifications.update.mutationOptions({
      onSuccess: ({ data }) => {
        setActionError(null);
        queryClient.setQueriesData({ queryKey: trpc.notifications.find.pathKey() }, (old: unknown) => replaceIn(old, data));
        void refreshCount();
      },
      onError: (error) => setActionError(messageOf(error)),
    }),
  );
  const readAll = useMutation(
    trpc.notifications.readAll.mutationOptions({
      onSuccess: async ({ data }) => {
        setActionError(null);
        setNotice(
          data.updated === 0
            ? "Nothing was unread."
            : `Marked ${data.updated} ${data.updated === 1 ? "notification" : "notifications"} read.`,
        );
        await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.notifications.find.pathKey() }), refreshCount()]);
      },
      onError: (error) => setActionError(messageOf(error)),
    }),
  );

  function apply(next: TFilters) {
    setFilters(next);
    setNotice(null);
  }

  function onFilter(event: FormEvent) {
    event.preventDefault();
    apply({ ...draft, show: filters.show });
  }

  function markAllRead() {
    setNotice(null);
    // Only what was there when the list was loaded: one that arrived since stays unread.
    const loadedAt = list.dataUpdatedAt > 0 ? new Date(list.dataUpdatedAt).toISOString() : undefined;
    readAll.mutate(loadedAt ? { before: loadedAt } : {});
  }

  // The bell's count (same query): older unread ones may be beyond the loaded pages.
  const me = useQuery({ ...trpc.me.get.queryOptions({}), staleTime: 5_000 });
  const unreadCount = me.data && "unread_notifications" in me.data.data ? me.data.data.unread_notifications : 0;
  const items = list.items;
  const anyUnread = unreadCount > 0 || items.some((item) => item.read_at === null);
  const nothingYet = unfiltered && !list.isPending && !list.isError && items.length === 0;

  return (
    <section className="card" aria-labelledby="notifications-heading">
      <CardHeader
        headingId="notifications-heading"
        title={filters.show === "unread" ? "Unread notifications" : "All notifications"}
        wrap
      >
        <div className="toolbar">
          <Segmented label="Show" value={filters.show} options={SHOW_OPTIONS} onChange={(show) => apply({ ...filters, show })} />
          <ActionButton
            look="button-secondary"
            icon={<CheckIcon />}
            pending={readAll.isPending}
            disabled={readAll.isPending || !anyUnread}
            onClick={markAllRead}
          >
            Mark all read
          </ActionButton>
        </div>
      </CardHeader>
      {/* Nothing to filter yet: the empty state says what comes here instead. */}
      {nothingYet ? null : (
        <form className="card-body notification-filters" onSubmit={onFilter} noValidate aria-label="Filter notifications">
          <Field label="Severity" error={listError?.fields.severity}>
            {(control) => (
              <select
                {...control}
                className="select"
                value={draft.severity}
                onChange={(event) => {
                  const severity = event.target.value as TFilters["severity"];
                  setDraft({ ...draft, severity });
                  apply({ ...filters, severity });
                }}
              >
                <option value="">Any severity</option>
                {(Object.keys(SEVERITY_LABELS) as TSeverity[]).map((value) => (
                  <option key={value} value={value}>
                    {SEVERITY_LABELS[value]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Kind" error={listError?.fields.code}>
            {(control) => (
              <select
                {...control}
                className="select"
                value={draft.kind}
                onChange={(event) => {
                  const kind = event.target.value;
                  setDraft({ ...draft, kind });
                  apply({ ...filters, kind });
                }}
              >
                <option value="">Any kind</option>
                {NOTIFICATION_KINDS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="form-actions notification-filter-actions">
            <button
              type="button"
              className="button button-ghost"
              disabled={unfiltered && draft.kind === "" && draft.severity === ""}
              onClick={() => {
                setDraft(NO_FILTERS);
                apply(NO_FILTERS);
              }}
            >
              Clear
            </button>
          </div>
        </form>
      )}
      <div className="card-body card-body-tight notification-status">
        <FormAlert message={actionError ?? listError?.summary ?? null} />
        <p className="notice" role="status">
          {notice ?? ""}
        </p>
      </div>
      {list.isPending ? (
        <div className="card-body muted">Loading…</div>
      ) : list.isError && items.length === 0 ? null : items.length === 0 ? (
        <NoNotifications filters={filters} />
      ) : (
        <ul className="notification-list">
          {items.map((notification) => (
            <li key={notification.id}>
              <NotificationItem
                notification={notification}
                busy={update.isPending && update.variables?.id === notification.id}
                onMark={(read) => update.mutate({ id: notification.id, read })}
              />
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </section>
  );
}

function NoNotifications({ filters }: { filters: TFilters }) {
  if (filters.severity || filters.kind) {
    return (
      <EmptyState icon={<BellIcon />} title="No notification matches these filters">
        Clear the filters to see every notification.
      </EmptyState>
    );
  }
  if (filters.show === "unread") {
    return (
      <EmptyState icon={<BellIcon />} title="You are all caught up">
        Nothing is unread. New notifications appear here and on the bell.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<BellIcon />} title="No notifications yet">
      Failed payouts and other alerts from your integrations, approvals waiting for you, imports with rejected rows and expiring
      agent tokens appear here. <Link href="/integrations">Connect an integration</Link> so its signals reach you, and{" "}
      <Link href="/settings#notification-webhook-heading">set a webhook in Settings</Link> to receive them in your own systems
      too.
    </EmptyState>
  );
}

function NotificationItem(props: { notification: TNotification; busy: boolean; onMark: (read: boolean) => void }) {
  const { notification } = props;
  const titleId = useId();
  const unread = notification.read_at === null;
  const link = refLink(notification.ref);
  const decided = resolutionText(notification.resolution);
  return (
    <article
      className="notification"
      aria-labelledby={titleId}
      data-unread={unread ? "" : undefined}
      data-severity={notification.severity}
    >
      <div className="notification-head">
        <SeverityBadge severity={notification.severity} />
        {unread ? <span className="notification-unread">Unread</span> : null}
        {decided ? <span className="pill pill-success">Decided</span> : null}
        <span className="notification-time">
          <DateTime iso={notification.created_at} withTime />
        </span>
      </div>
      <h3 id={titleId} className="notification-title">
        {notification.title}
      </h3>
      {/* A signal sent without its own message has the title as its body too: shown once. */}
      {notification.body && notification.body !== notification.title ? (
        <p className="notification-body">{notification.body}</p>
      ) : null}
      {decided && notification.resolution ? (
        <p className="notification-resolution" data-testid="notification-resolution">
          <CheckIcon /> {decided}
          {notification.resolution.decided_at ? (
            <>
              {" "}
              on <DateTime iso={notification.resolution.decided_at} withTime />
            </>
          ) : null}
          . Nothing waits for you here any more.
        </p>
      ) : null}
      <div className="notification-foot">
        <span className="muted notification-code">{kindLabel(notification.code)}</span>
        {link ? (
          <Link href={link.href} className="notification-link">
            {link.label}
            <span className="visually-hidden">: {notification.title}</span>
          </Link>
        ) : null}
        <ActionButton look="button-ghost notification-mark" pending={props.busy} onClick={() => props.onMark(unread)}>
          {unread ? "Mark read" : "Mark unread"}
          <span className="visually-hidden">: {notification.title}</span>
        </ActionButton>
      </div>
    </article>
  );
}
