"use client";
// The owner's businesses for the connect forms' "Business" select (an integration always
// belongs to one business). One query, shared by both forms through its key. Pickers offer
// only active businesses; `all` (archived too) names the business of existing records.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

export type TBusinessOption = { id: string; name: string; currency: string };

export function useBusinesses(): { businesses: TBusinessOption[]; all: TBusinessOption[]; isPending: boolean } {
  const trpc = useTRPC();
  const query = useQuery(trpc.businesses.find.queryOptions({ limit: 200 }));
  const rows = query.data?.data ?? [];
  const option = (b: (typeof rows)[number]) => ({ id: b.id, name: b.name, currency: b.currency });
  return {
    businesses: rows.filter((b) => b.status !== "archived").map(option),
    all: rows.map(option),
    isPending: query.isPending,
  };
}
