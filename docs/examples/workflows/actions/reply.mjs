// actions/reply.mjs
export default {
  name: "Reply to the caller",
  type: "action",
  props: {
    order_id: { type: "string" },
    total_cents: { type: "integer" },
    message: { type: "string" },
  },
  async run({ $ }) {
    await $.respond({
      status: 200,
      headers: { "x-order-id": this.order_id },
      body: { order: this.order_id, total_cents: this.total_cents, message: this.message },
    });
    return this.message;
  },
};
