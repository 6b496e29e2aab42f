/** Deleting the resource a page shows, then leaving for its list (whose cached pages are now stale). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";

/** `listKey` is the query key of the list at `listPath`. */
export function useDeleteAndLeave(remove: () => Promise<unknown>, listKey: string, listPath: string) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: remove,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [listKey] });
      navigate(listPath);
    },
  });
}
