-- Every change to the catalogue, whoever makes it (the shop, the admin, a checkout, psql),
-- is announced on the catalog_changes channel. The server clears its page cache and pushes
-- the change to open pages over Server-Sent Events; on PostgreSQL every instance listening
-- hears it, so several instances agree.
CREATE OR REPLACE FUNCTION notify_catalog_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify(
    'catalog_changes',
    json_build_object('op', lower(TG_OP), 'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text
  );
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_notify_change
AFTER INSERT OR UPDATE OR DELETE ON "products"
FOR EACH ROW EXECUTE FUNCTION notify_catalog_change();
--> statement-breakpoint
-- Site content (hero banner, promotions, messages) changes what the cached pages show too.
CREATE OR REPLACE FUNCTION notify_site_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('catalog_changes', json_build_object('op', 'site', 'id', null)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER site_settings_notify_change
AFTER INSERT OR UPDATE OR DELETE ON "site_settings"
FOR EACH STATEMENT EXECUTE FUNCTION notify_site_change();
--> statement-breakpoint
CREATE TRIGGER site_messages_notify_change
AFTER INSERT OR UPDATE OR DELETE ON "site_messages"
FOR EACH STATEMENT EXECUTE FUNCTION notify_site_change();
