/** The frame of every signed-in page: navigation, the account, sign-out. */
import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import type { Me } from "../../client/types.js";
import { signOut } from "./session.js";

const SECTIONS = [
  { href: "/sources", label: "Sources" },
  { href: "/workflows", label: "Workflows" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/components", label: "Components" },
  { href: "/apps", label: "Apps" },
  { href: "/keys", label: "API keys" },
];

export function Shell({ me, children }: { me: Me; children: ReactNode }) {
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const sections = me.is_admin ? [...SECTIONS, { href: "/accounts", label: "Accounts" }] : SECTIONS;
  return (
    <>
      <header className="topbar">
        <Link href="/sources" className="brand">
          Sluice
        </Link>
        <nav aria-label="Main">
          {sections.map((section) => (
            <Link
              key={section.href}
              href={section.href}
              aria-current={location.startsWith(section.href) ? "page" : undefined}
            >
              {section.label}
            </Link>
          ))}
        </nav>
        <div className="account">
          <span className="muted">{me.name}</span>
          <button
            type="button"
            className="secondary small"
            onClick={async () => {
              await signOut().catch(() => undefined);
              queryClient.clear();
              navigate("/signin");
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main>{children}</main>
    </>
  );
}
