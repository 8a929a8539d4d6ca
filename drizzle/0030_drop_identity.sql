CREATE TABLE "drop_identity_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identity" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drop_queue" ADD COLUMN "identity" text;--> statement-breakpoint
CREATE INDEX "drop_identity_codes_identity_idx" ON "drop_identity_codes" USING btree ("identity","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "drop_queue_identity_idx" ON "drop_queue" USING btree ("product_id","drop_time","identity") WHERE "drop_queue"."identity" is not null;--> statement-breakpoint
-- A drop's rules show on its product's page (its limit, its waiting room): creating, changing or
-- ending one is a change of that product for the page cache and the open pages, as a write to
-- the product is (0002). Without it a page cached before the drop existed kept no waiting room.
CREATE OR REPLACE FUNCTION notify_product_drop_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('catalog_changes', json_build_object('op', 'update', 'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.product_id ELSE NEW.product_id END)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER product_drops_notify_change AFTER INSERT OR UPDATE OR DELETE ON product_drops FOR EACH ROW EXECUTE FUNCTION notify_product_drop_change();
