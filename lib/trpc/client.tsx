"use client";
// The panel's tRPC client: @trpc/tanstack-react-query over /api/trpc (the panel cookie
// authenticates every call). Plain JSON on the wire, as on /v1: no transformer.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { TAppRouter } from "@/server/router";
import { appCodeOf, isSignedOutError, ServerAnswerError } from "./errors";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<TAppRouter>();

/** Sends the browser to the sign-in page when the session ends mid-visit. */
function onAnyError(error: unknown): void {
  if (isSignedOutError(error) && typeof window !== "undefined") window.location.assign("/sign-in");
}

function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onAnyError }),
    mutationCache: new MutationCache({ onError: onAnyError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Only our own failures are worth another try; a 4xx answer will not change.
        retry: (failureCount, error) => failureCount < 2 && (appCodeOf(error) ?? "internal_error") === "internal_error",
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  // On the server every request gets its own client; in the browser one lives for the visit.
  if (typeof window === "undefined") return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}

function trpcUrl(): string {
  if (typeof window !== "undefined") return "/api/trpc";
  return `http://localhost:${process.env.PORT ?? 3000}/api/trpc`;
}

/**
 * fetch for the tRPC link: an error answer that is not JSON (a crashed route's HTML page, a
 * proxy's 502) becomes a ServerAnswerError with its status and request id, instead of a JSON
 * parse failure the panel could not tell from a lost connection.
 */
async function panelFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (!response.ok && !(response.headers.get("content-type") ?? "").includes("json")) {
    throw new ServerAnswerError(response.status, response.headers.get("x-request-id"));
  }
  return response;
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<TAppRouter>({ links: [httpBatchLink({ url: trpcUrl(), fetch: panelFetch })] }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
