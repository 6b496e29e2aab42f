/** The web UI's entry: the query cache, the router, and the signed-in shell around every page. */
import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { isUnauthenticated } from "./api.js";
import { App } from "./app.js";
import "./styles.css";

const queryClient: QueryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => !isUnauthenticated(error) && count < 1, staleTime: 5_000 },
  },
  queryCache: new QueryCache({
    // A call refused for want of a session sends the shell back to sign-in (it re-checks "me").
    onError: (error, query) => {
      if (isUnauthenticated(error) && query.queryKey[0] !== "me") {
        void queryClient.invalidateQueries({ queryKey: ["me"] });
      }
    },
  }),
});

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
