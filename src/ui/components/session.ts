/** The signed-in account ("me"), read through the query cache; a 401 means no session. */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api.js";

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
