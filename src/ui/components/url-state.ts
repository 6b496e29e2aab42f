/** Filters, tabs and selections live in the URL's query string, so reload and share keep them. */
import { useCallback } from "react";
import { useLocation, useSearch } from "wouter";

export function useUrlParam(name: string, fallback = ""): [string, (value: string) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const value = new URLSearchParams(search).get(name) ?? fallback;
  const setValue = useCallback(
    (next: string) => {
      const params = new URLSearchParams(window.location.search);
      if (next === "" || next === fallback) params.delete(name);
      else params.set(name, next);
      const query = params.toString();
      navigate(query ? `${location}?${query}` : location, { replace: true });
    },
    [name, fallback, location, navigate],
  );
  return [value, setValue];
}
