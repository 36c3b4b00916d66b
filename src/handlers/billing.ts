// Billing: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaInvoice } from "../../generated/schema.d.ts";
import * as billing from "../domain/billing.ts";
import type { Context } from "../http/request-context.ts";
import { paged } from "./pagination.ts";

type BillingHandlers = Pick<Handlers<Context>, "getUsage" | "listInvoices">;

export const billingHandlers: BillingHandlers = {
  async getUsage(_input, { db, partition }) {
    return { status: 200, body: await billing.getUsage(db, partition) };
  },

  async listInvoices({ query }, context) {
    const list = paged<SchemaInvoice>(context, "invoices", query);
    return { status: 200, body: list.body(await billing.listInvoices(context.db, context.partition, list.request)) };
  },
};
