"use client";
// The owner's sessions: where they are signed in (panel and API), newest first. Revoke one,
// sign out this device, or sign out everywhere else.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { formErrorOf } from "@/lib/trpc/errors";
import type { TOwnerSession } from "@/server/sessions/session.schema";
import { SESSIONS_PAGE_SIZE } from "../panel/page-size";
import { DateTime } from "../panel/preferences";
import { useCursorList, type TListPage } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { KeyIcon, LogOutIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import { Segmented } from "../ui/segmented";
import { StatusPill } from "../ui/status-pill";
import { describeUserAgent } from "./user-agent";

type TFilter = "active" | "all";
const FILTERS = [
  { value: "active", label: "Active" },
  { value: "all", label: "All, with history" },
] as const;

const CHANNEL_LABELS: Record<TOwnerSession["channel"], string> = { panel: "Panel", api: "API" };

export function SessionsView(props: { initialFilter: TFilter; initialPage: TListPage<TOwnerSession>; staticOwner: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<TFilter>(props.initialFilter);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const input = { status: filter, limit: SESSIONS_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.sessions.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.sessions.find.query({ ...input, cursor }, { signal }),
    initialPage: filter === props.initialFilter ? props.initialPage : null,
  });
  // This device first, then the others newest first (the server's order).
  const sessions = [...list.items].sort((a, b) => Number(b.current) - Number(a.current));

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sessions.find.pathKey() });

  const revoke = useMutation(
    trpc.sessions.revoke.mutationOptions({
      onSuccess: async ({ data }) => {
        setError(null);
        setNotice(`${describeUserAgent(data.user_agent)} (${CHANNEL_LABELS[data.channel]}) was signed out.`);
        await refresh();
      },
      onError: (cause) => setError(formErrorOf(cause, []).summary),
    }),
  );
  const revokeOthers = useMutation(
    trpc.sessions.revokeOthers.mutationOptions({
      onSuccess: async ({ data }) => {
        setError(null);
        setNotice(
          data.revoked === 0
            ? "No other session was signed in."
            : `Signed out ${data.revoked} other ${data.revoked === 1 ? "session" : "sessions"}.`,
        );
        await refresh();
      },
      onError: (cause) => setError(formErrorOf(cause, []).summary),
    }),
  );

  return (
    <section className="card" aria-labelledby="sessions-heading">
      <CardHeader
        headingId="sessions-heading"
        title="Signed-in sessions"
        description="Every sign-in, from this panel or from the API. A session lasts 30 days unless it is revoked."
        wrap
      >
        <div className="toolbar">
          <Segmented label="Which sessions" value={filter} options={FILTERS} onChange={setFilter} />
          <ActionButton
            look="button-secondary"
            pending={revokeOthers.isPending}
            icon={<LogOutIcon />}
            onClick={() => revokeOthers.mutate({})}
          >
            Sign out everywhere else
          </ActionButton>
        </div>
      </CardHeader>
      {props.staticOwner ? (
        <p className="card-note">
          You are signed in with the static owner token, which is not a session: “Sign out everywhere else” signs out every
          session.
        </p>
      ) : null}
      {error || notice ? (
        <div className="card-body card-body-tight">
          <FormAlert message={error} />
          {notice && !error ? (
            <p className="notice" role="status">
              {notice}
            </p>
          ) : null}
        </div>
      ) : null}
      {list.isPending ? (
        <div className="card-body muted">Loading sessions…</div>
      ) : sessions.length === 0 ? (
        <EmptyState icon={<KeyIcon />} title={filter === "active" ? "No active sessions" : "No sessions yet"}>
          Sessions appear here when you sign in with an email link, in this panel or through the API.
        </EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col" className="cell-right">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id} data-current={session.current || undefined}>
                  <td className="cell-name">
                    <span className="cell-stack">
                      <span className="cell-strong" title={session.user_agent ?? undefined}>
                        {describeUserAgent(session.user_agent)}
                      </span>
                      {session.current ? <span className="pill pill-accent">This device</span> : null}
                    </span>
                    <span className="cell-sub">
                      <span title="Channel">{CHANNEL_LABELS[session.channel]}</span>
                      {" · "}
                      <span className="mono" title="IP address">
                        {session.ip ?? "unknown address"}
                      </span>
                    </span>
                  </td>
                  <td className="cell-date">
                    <DateTime iso={session.created_at} withTime />
                  </td>
                  <td className="cell-date">
                    <DateTime iso={session.last_seen_at} withTime />
                  </td>
                  <td className="cell-date">
                    {session.status === "revoked" && session.revoked_at ? (
                      <span title="Revoked">
                        Revoked <DateTime iso={session.revoked_at} withTime />
                      </span>
                    ) : (
                      <DateTime iso={session.expires_at} withTime />
                    )}
                  </td>
                  <td>
                    <StatusPill status={session.status} />
                  </td>
                  <td className="cell-right">
                    {session.current ? (
                      <form method="post" action="/api/panel/sign-out">
                        <button type="submit" className="button button-ghost">
                          Sign out
                        </button>
                      </form>
                    ) : session.status === "revoked" ? null : (
                      <button
                        type="button"
                        className="button button-ghost button-danger-text"
                        aria-label={`Revoke ${describeUserAgent(session.user_agent)} session from ${session.ip ?? "an unknown address"}`}
                        disabled={revoke.isPending && revoke.variables?.id === session.id}
                        onClick={() => revoke.mutate({ id: session.id })}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore list={list} />
    </section>
  );
}
