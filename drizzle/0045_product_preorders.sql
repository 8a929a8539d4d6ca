CREATE TABLE "product_preorders" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"release_on" date NOT NULL,
	"estimated_delivery_on" date NOT NULL,
	"quantity" integer NOT NULL,
	"per_customer_limit" integer DEFAULT 1 NOT NULL,
	"ordered_units" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_preorders_quantity_range" CHECK ("product_preorders"."quantity" between 1 and 1000000),
	CONSTRAINT "product_preorders_limit_range" CHECK ("product_preorders"."per_customer_limit" between 1 and 99),
	CONSTRAINT "product_preorders_ordered_within_quantity" CHECK ("product_preorders"."ordered_units" between 0 and "product_preorders"."quantity"),
	CONSTRAINT "product_preorders_delivery_after_release" CHECK ("product_preorders"."estimated_delivery_on" >= "product_preorders"."release_on")
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "preorder" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "product_preorders" ADD CONSTRAINT "product_preorders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written
-- A pre-order's settings and units left are the product's (its page, the checkouts' stock gate):
-- announced on catalog_changes as a drop's rules are (0030's function reads NEW/OLD.product_id).
DROP TRIGGER IF EXISTS product_preorders_notify_change ON product_preorders;--> statement-breakpoint
CREATE TRIGGER product_preorders_notify_change AFTER INSERT OR UPDATE OR DELETE ON product_preorders FOR EACH ROW EXECUTE FUNCTION notify_product_drop_change();
