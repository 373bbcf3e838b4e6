// The pages of one record (/agents/[id], /businesses/[id]): loaded with the owner's server
// caller; a record the owner cannot see (another owner's, or a malformed id) is the not-found
// page, never an error page.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { toAppError } from "@/server/errors/to-app-error";
import { getOwnerCaller, type TServerCaller } from "@/server/trpc/server-caller";

export type TDetailPageProps = { params: Promise<{ id: string }> };

type TLoad<TRecord> = (caller: TServerCaller, id: string) => Promise<{ data: TRecord }>;

/** The record of the page's `id` with the caller that loaded it, or the not-found page. */
export async function loadDetail<TRecord>(
  { params }: TDetailPageProps,
  load: TLoad<TRecord>,
): Promise<{ caller: TServerCaller; id: string; record: TRecord }> {
  const { id } = await params;
  const caller = await getOwnerCaller();
  try {
    return { caller, id, record: (await load(caller, id)).data };
  } catch (error) {
    const { code } = toAppError(error);
    if (code === "not_found" || code === "validation_error") notFound();
    throw error;
  }
}

/** generateMetadata for a record's page: its name as the title, `fallback` when it cannot be loaded. */
export function detailMetadata(load: TLoad<{ name: string }>, fallback: string) {
  return async ({ params }: TDetailPageProps): Promise<Metadata> => {
    const caller = await getOwnerCaller();
    const { id } = await params;
    const record = await load(caller, id).catch(() => null);
    return { title: record?.data.name ?? fallback };
  };
}
