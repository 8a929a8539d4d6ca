CREATE TABLE "document_sequences" (
	"kind" text PRIMARY KEY NOT NULL,
	"last_value" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"order_id" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"total_cents" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"pdf" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_kind_sequence" UNIQUE("kind","sequence"),
	CONSTRAINT "invoices_order_kind" UNIQUE("order_id","kind")
);
--> statement-breakpoint
CREATE TABLE "product_prices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_prices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"effective_from" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "safety_profiles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "safety_profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"brand" text NOT NULL,
	"manufacturer_name" text NOT NULL,
	"postal_address" text NOT NULL,
	"email" text NOT NULL,
	"warnings" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safety_profiles_brand_unique" UNIQUE("brand")
);
--> statement-breakpoint
CREATE TABLE "shipping_methods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shipping_methods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"countries" text[] NOT NULL,
	"bands" jsonb NOT NULL,
	"free_from_cents" integer,
	"delivery_time" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_methods_free_from_non_negative" CHECK ("shipping_methods"."free_from_cents" is null or "shipping_methods"."free_from_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_non_negative";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vat_rate_bp" integer DEFAULT 2000 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vat_scheme" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount_share_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vat_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_kind" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_delivery_time" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_country" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_regime" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_breakdown" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "vat_rate_bp" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "vat_scheme" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "compare_at_cents" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "safety_profile_id" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "manufacturer_name" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "manufacturer_address" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "manufacturer_email" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "safety_warnings" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "ean" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_issued_idx" ON "invoices" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "product_prices_product_idx" ON "product_prices" USING btree ("product_id","effective_from");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipping_method_id_shipping_methods_id_fk" FOREIGN KEY ("shipping_method_id") REFERENCES "public"."shipping_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_safety_profile_id_safety_profiles_id_fk" FOREIGN KEY ("safety_profile_id") REFERENCES "public"."safety_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_non_negative" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."total_cents" >= 0 and "orders"."insurance_cents" >= 0 and "orders"."discount_cents" >= 0 and "orders"."shipping_cents" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_weight_range" CHECK ("products"."weight_grams" is null or "products"."weight_grams" between 0 and 100000);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_vat_rate_known" CHECK ("products"."vat_rate_bp" is null or "products"."vat_rate_bp" in (2000, 1000, 550, 210));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_compare_at_positive" CHECK ("products"."compare_at_cents" is null or "products"."compare_at_cents" > 0);--> statement-breakpoint
-- Every price a product takes is written here, whatever writes it (the admin form, the CSV
-- import, a script): the lowest price of the 30 days before a reduction (L112-1-1) is read from it.
CREATE OR REPLACE FUNCTION record_product_price() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.price_cents IS DISTINCT FROM NEW.price_cents THEN
    INSERT INTO product_prices (product_id, price_cents, effective_from) VALUES (NEW.id, NEW.price_cents, now());
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER products_price_history AFTER INSERT OR UPDATE OF price_cents ON products
  FOR EACH ROW EXECUTE FUNCTION record_product_price();--> statement-breakpoint
INSERT INTO product_prices (product_id, price_cents, effective_from) SELECT id, price_cents, created_at FROM products;--> statement-breakpoint
INSERT INTO document_sequences (kind, last_value) VALUES ('invoice', 0), ('credit_note', 0);
--> statement-breakpoint
-- The delivery methods a new shop starts with (prices in cents, bands by weight in grams): the
-- seller changes or removes them in /admin/shipping.
INSERT INTO shipping_methods (name, kind, countries, bands, free_from_cents, delivery_time, position) VALUES
  ('Lettre suivie', 'letter', ARRAY['FR'],
   '[{"upToGrams":50,"fromSubtotalCents":0,"priceCents":249},{"upToGrams":100,"fromSubtotalCents":0,"priceCents":349}]', NULL,
   '3 à 4 jours ouvrés', 1),
  ('Point relais', 'relay', ARRAY['FR','BE','LU','NL','ES'],
   '[{"upToGrams":500,"fromSubtotalCents":0,"priceCents":399},{"upToGrams":1000,"fromSubtotalCents":0,"priceCents":449},{"upToGrams":3000,"fromSubtotalCents":0,"priceCents":599},{"upToGrams":10000,"fromSubtotalCents":0,"priceCents":899}]', 6000,
   '3 à 5 jours ouvrés', 2),
  ('Colissimo à domicile', 'home', ARRAY['FR'],
   '[{"upToGrams":250,"fromSubtotalCents":0,"priceCents":549},{"upToGrams":500,"fromSubtotalCents":0,"priceCents":749},{"upToGrams":1000,"fromSubtotalCents":0,"priceCents":899},{"upToGrams":2000,"fromSubtotalCents":0,"priceCents":1049},{"upToGrams":5000,"fromSubtotalCents":0,"priceCents":1599},{"upToGrams":30000,"fromSubtotalCents":0,"priceCents":2999}]', 10000,
   '2 à 3 jours ouvrés', 3),
  ('Colissimo Europe', 'home', ARRAY['DE','AT','BE','BG','CY','HR','DK','ES','EE','FI','GR','HU','IE','IT','LV','LT','LU','MT','NL','PL','PT','CZ','RO','SK','SI','SE'],
   '[{"upToGrams":500,"fromSubtotalCents":0,"priceCents":1390},{"upToGrams":1000,"fromSubtotalCents":0,"priceCents":1690},{"upToGrams":2000,"fromSubtotalCents":0,"priceCents":1890},{"upToGrams":5000,"fromSubtotalCents":0,"priceCents":2490},{"upToGrams":30000,"fromSubtotalCents":0,"priceCents":4990}]', 25000,
   '4 à 8 jours ouvrés', 4);
