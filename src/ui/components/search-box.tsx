/** A search field kept in the URL; "/" anywhere on the page focuses it. */
import { useEffect, useRef } from "react";
import { useUrlParam } from "./url-state.js";

export function SearchBox({ label, param = "q" }: { label: string; param?: string }) {
  const [value, setValue] = useUrlParam(param);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing =
        target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);
      if (event.key === "/" && !typing) {
        event.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <input
      ref={input}
      type="search"
      className="search"
      aria-label={label}
      placeholder={`${label} (press /)`}
      value={value}
      onChange={(event) => setValue(event.target.value)}
    />
  );
}
