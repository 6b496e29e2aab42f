/** Tabs whose selection is a URL parameter (`?tab=`), so each tab has its own permalink. */
import type { ReactNode } from "react";
import { useUrlParam } from "./url-state.js";

export function useTab(tabs: readonly string[]): [string, (tab: string) => void] {
  const first = tabs[0] ?? "";
  const [tab, setTab] = useUrlParam("tab", first);
  return [tabs.includes(tab) ? tab : first, setTab];
}

export function TabList({
  tabs,
  current,
  onSelect,
  label,
}: {
  tabs: readonly string[];
  current: string;
  onSelect: (tab: string) => void;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="tabs">
      {tabs.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          id={`tab-${tab}`}
          aria-selected={tab === current}
          aria-controls={`panel-${tab}`}
          onClick={() => onSelect(tab)}
        >
          {tab[0]?.toUpperCase()}
          {tab.slice(1)}
        </button>
      ))}
    </div>
  );
}

/** The panel of the current tab, labelled by its tab in `TabList`. */
export function TabPanel({ tab, children }: { tab: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
      {children}
    </div>
  );
}
