/** The list beside an inspector (events, runs): a button per item, the current one marked. */
import type { ReactNode } from "react";

export function PickList<T extends { id: string }>({
  label,
  items,
  current,
  onPick,
  children,
}: {
  label: string;
  items: readonly T[];
  /** The id of the item the inspector shows. */
  current: string | undefined;
  onPick: (id: string) => void;
  /** What an item's button shows. */
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className="event-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <button type="button" aria-current={item.id === current} onClick={() => onPick(item.id)}>
            {children(item)}
          </button>
        </li>
      ))}
    </ul>
  );
}
