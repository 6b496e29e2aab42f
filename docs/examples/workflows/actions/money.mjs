// actions/money.mjs
export function lineCents(item) {
  return item.cents * item.qty;
}
