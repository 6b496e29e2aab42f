/** The web UI's entry: the query cache, the router, and the signed-in shell around every page. */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { isUnauthenticated } from "./api.js";
import { App } from "./app.js";
import { recheckSession } from "./components/session.js";
import "./styles.css";

const queryClient: QueryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => !isUnauthenticated(error) && count < 1, staleTime: 5_000 },
  },
  // A 401 on a read, or on a save, deploy or delete, sends the page to sign-in and back after it.
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.queryKey[0] !== "me") recheckSession(queryClient, error);
    },
  }),
  mutationCache: new MutationCache({ onError: (error) => recheckSession(queryClient, error) }),
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
