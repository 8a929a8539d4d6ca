CREATE TABLE "product_drops" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"per_customer_limit" integer DEFAULT 1 NOT NULL,
	"account_required" boolean DEFAULT false NOT NULL,
	"hold_minutes" integer DEFAULT 10 NOT NULL,
	"start_mode" text DEFAULT 'first_come' NOT NULL,
	"fair_window_minutes" integer DEFAULT 10 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_drops_limit_range" CHECK ("product_drops"."per_customer_limit" between 1 and 99),
	CONSTRAINT "product_drops_hold_range" CHECK ("product_drops"."hold_minutes" between 2 and 30),
	CONSTRAINT "product_drops_window_range" CHECK ("product_drops"."fair_window_minutes" between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_email_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "client_network" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_address_key" text;--> statement-breakpoint
ALTER TABLE "product_drops" ADD CONSTRAINT "product_drops_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_buyer_email_key_idx" ON "orders" USING btree ("buyer_email_key") WHERE "orders"."buyer_email_key" is not null;--> statement-breakpoint
CREATE INDEX "orders_client_network_idx" ON "orders" USING btree ("client_network") WHERE "orders"."status" = 'pending_payment';--> statement-breakpoint
CREATE INDEX "orders_buyer_address_key_idx" ON "orders" USING btree ("buyer_address_key") WHERE "orders"."buyer_address_key" is not null;