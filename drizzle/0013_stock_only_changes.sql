-- A change of a product's stock alone (a sale, a release, a restock: `stock` and `updated_at`)
-- says so, with the new stock: {"op":"update","id":…,"stock":…}. Such a change moves no product
-- into or out of a listing and reorders none (no listing filters or sorts by stock), so the
-- server's listing reads (app/services/listing-cache.server.ts) update the stock they hold
-- instead of reading the listings again.
CREATE OR REPLACE FUNCTION notify_catalog_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) - 'stock' - 'updated_at') = (to_jsonb(NEW) - 'stock' - 'updated_at') THEN
    PERFORM pg_notify('catalog_changes', json_build_object('op', 'update', 'id', NEW.id, 'stock', NEW.stock)::text);
  ELSE
    PERFORM pg_notify(
      'catalog_changes',
      json_build_object('op', lower(TG_OP), 'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text
    );
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
