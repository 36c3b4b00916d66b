// Registering an endpoint: the register form's post, answered with the list page (the secret
// shown once, or the form again with its error).
import { InvalidInputError } from "../../domain/errors.ts";
import { createWebhookEndpoint } from "../../domain/webhooks.ts";
import { recordAction, type WorkspaceContext } from "../context.ts";
import { descriptionOf, enabledEventsOf, invalid } from "./endpoint-form.ts";
import { environmentOf, partitionOf } from "../environment.ts";
import { listPage } from "./list.ts";

export async function registerEndpoint(ctx: WorkspaceContext, _params: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  try {
    const enabledEvents = enabledEventsOf(form);
    const description = descriptionOf(form);
    const url = await ctx.deps.webhookTargets.check(form.get("url") ?? ""); // fails fast, before a transaction opens
    const created = await ctx.deps.db.transaction(async (tx) => {
      const endpoint = await createWebhookEndpoint(tx, ctx.deps.webhookTargets, partitionOf(ctx, environment), {
        url,
        enabled_events: enabledEvents,
        ...(description ? { description } : {}),
      });
      await recordAction(tx, ctx, "webhook_endpoint.created", endpoint.id, 200);
      return endpoint;
    });
    await listPage(ctx, {
      status: 200,
      environment,
      created: { id: created.id, url: created.url, secret: created.secret },
    });
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    await listPage(ctx, { status: 400, environment, values: form, error: invalid(error) });
  }
}
