/** The signed-in account ("me"), read through the query cache; a 401 means no session. */
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { api, isUnauthenticated } from "../api.js";

export function useMe() {
  return useQuery({ queryKey: ["me"], queryFn: () => api.me(), staleTime: 60_000 });
}

/** Opens a session: the server sets the httpOnly cookie; the key is not kept anywhere here. */
export function signIn(apiKey: string) {
  return api.data<import("../../client/types.js").Me>("POST", "/v1/sessions", { body: { api_key: apiKey } });
}

export function signOut() {
  return api.request<undefined>("DELETE", "/v1/sessions/current");
}

/**
 * A call refused for want of a session (it expired, was signed out elsewhere, or its key was
 * revoked) sends the page back to sign-in: "me" is checked again, and its 401 redirects to
 * `/signin?next=<this page>` (app.tsx). The query and mutation caches call it for every failure
 * (main.tsx); a form that calls the client itself calls it from its catch.
 */
export function recheckSession(queryClient: QueryClient, error: unknown): void {
  if (isUnauthenticated(error)) void queryClient.invalidateQueries({ queryKey: ["me"] });
}
