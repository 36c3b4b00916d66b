// Billing: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import * as billing from "../domain/billing.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";
import { ok } from "./ok.ts";

type BillingHandlers = Pick<Handlers<Context>, "getUsage" | "listInvoices">;

export const billingHandlers: BillingHandlers = {
  getUsage: (_input, { db, partition }) => ok(billing.getUsage(db, partition)),

  async listInvoices({ query }, context) {
    return listed(context, "invoices", query, {}, (page) => billing.listInvoices(context.db, context.partition, page));
  },
};
