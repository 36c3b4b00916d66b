-- Every change that can alter what a bearer credential may do is announced on the channel
-- `principal_changes`, from the database itself, so every replica's principal cache hears it however
-- the change was made (the API, the console, `pbs`, or SQL by hand). NOTIFY is transactional: the
-- message leaves at commit, in commit order, and never for a rolled-back change.
-- Payload: the id of the workspace whose credentials changed; `*` for a change that may touch any
-- workspace; `+` when a credential was created (a secret refused as unknown may now be valid).
-- Columns that change on every use (last_used_at, used_at) do not notify: they would empty the
-- caches once a minute per key.
CREATE FUNCTION notify_principal_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
  PERFORM pg_notify('principal_changes', CASE TG_ARGV[0] WHEN '*' THEN '*' WHEN '+' THEN '+' ELSE changed ->> TG_ARGV[0] END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_changed AFTER UPDATE OF workspace_id, name, environment, scopes, expires_at, revoked_at OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('workspace_id');
--> statement-breakpoint
CREATE TRIGGER api_keys_created AFTER INSERT ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('+');
--> statement-breakpoint
CREATE TRIGGER oauth_tokens_created AFTER INSERT ON oauth_tokens
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('+');
--> statement-breakpoint
CREATE TRIGGER workspaces_changed AFTER UPDATE OF slug, name, plan OR DELETE ON workspaces
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('id');
--> statement-breakpoint
CREATE TRIGGER memberships_changed AFTER INSERT OR UPDATE OF role OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('workspace_id');
--> statement-breakpoint
CREATE TRIGGER oauth_grants_changed AFTER UPDATE OF client_id, workspace_id, user_id, scopes, revoked_at OR DELETE ON oauth_grants
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('workspace_id');
--> statement-breakpoint
CREATE TRIGGER oauth_clients_changed AFTER UPDATE OF name OR DELETE ON oauth_clients
  FOR EACH ROW EXECUTE FUNCTION notify_principal_change('*');
--> statement-breakpoint
-- TRUNCATE fires no row triggers; tests empty tables this way between cases.
CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change('*');
--> statement-breakpoint
CREATE TRIGGER workspaces_truncated AFTER TRUNCATE ON workspaces
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change('*');
--> statement-breakpoint
CREATE TRIGGER memberships_truncated AFTER TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change('*');
--> statement-breakpoint
CREATE TRIGGER oauth_grants_truncated AFTER TRUNCATE ON oauth_grants
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change('*');
--> statement-breakpoint
CREATE TRIGGER oauth_clients_truncated AFTER TRUNCATE ON oauth_clients
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change('*');
