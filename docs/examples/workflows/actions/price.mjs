// actions/price.mjs
import { lineCents } from "./money.mjs";

export default {
  key: "order-price",
  name: "Price an order",
  version: "0.1.0",
  type: "action",
  props: {
    items: { type: "any", description: "[{ sku, cents, qty }]" },
    tax_percent: { type: "integer", min: 0 },
  },
  async run({ $ }) {
    const net = this.items.reduce((sum, item) => sum + lineCents(item), 0);
    const total = Math.round((net * (100 + this.tax_percent)) / 100);
    const count = this.items.reduce((sum, item) => sum + item.qty, 0);
    $.export("item_count", count);
    $.export("$summary", `${this.items.length} lines, ${total} cents`);
    return { net_cents: net, total_cents: total };
  },
};
