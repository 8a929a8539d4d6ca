-- An order placed, or its status changed (paid, shipped, refunded…), is announced on the
-- catalog_changes channel as {"op":"orders"}, without saying which: the seller's dashboard and
-- order pages, open on any instance, reload their figures (server/live.ts sends it only to the
-- admin's streams).
CREATE OR REPLACE FUNCTION notify_order_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status THEN
    PERFORM pg_notify('catalog_changes', '{"op":"orders"}');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_notify_change AFTER INSERT OR UPDATE OF status ON orders FOR EACH ROW EXECUTE FUNCTION notify_order_change();
