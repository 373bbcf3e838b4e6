"use client";
// The owner's businesses for the connect forms' "Business" select (an integration always
// belongs to one business). One query, shared by both forms through its key.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

export type TBusinessOption = { id: string; name: string; currency: string };

export function useBusinesses(): { businesses: TBusinessOption[]; isPending: boolean } {
  const trpc = useTRPC();
  const query = useQuery(trpc.businesses.find.queryOptions({ limit: 200 }));
  const businesses = (query.data?.data ?? []).map((b) => ({ id: b.id, name: b.name, currency: b.currency }));
  return { businesses, isPending: query.isPending };
}
