CREATE TABLE "preorder_allocation_orders" (
	"allocation_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"ordered" integer NOT NULL,
	"allocated" integer NOT NULL,
	"refunded" integer NOT NULL,
	CONSTRAINT "preorder_allocation_orders_allocation_id_order_id_pk" PRIMARY KEY("allocation_id","order_id"),
	CONSTRAINT "preorder_allocation_orders_units" CHECK ("preorder_allocation_orders"."allocated" >= 0 and "preorder_allocation_orders"."refunded" >= 0 and "preorder_allocation_orders"."allocated" + "preorder_allocation_orders"."refunded" = "preorder_allocation_orders"."ordered")
);
--> statement-breakpoint
CREATE TABLE "preorder_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" integer NOT NULL,
	"units_received" integer NOT NULL,
	"rule" text NOT NULL,
	"seed" text,
	"units_allocated" integer NOT NULL,
	"units_to_stock" integer NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "preorder_allocations_productId_unique" UNIQUE("product_id"),
	CONSTRAINT "preorder_allocations_units" CHECK ("preorder_allocations"."units_received" >= 0 and "preorder_allocations"."units_allocated" between 0 and "preorder_allocations"."units_received" and "preorder_allocations"."units_to_stock" = "preorder_allocations"."units_received" - "preorder_allocations"."units_allocated")
);
--> statement-breakpoint
ALTER TABLE "preorder_allocation_orders" ADD CONSTRAINT "preorder_allocation_orders_allocation_id_preorder_allocations_id_fk" FOREIGN KEY ("allocation_id") REFERENCES "public"."preorder_allocations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preorder_allocation_orders" ADD CONSTRAINT "preorder_allocation_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preorder_allocations" ADD CONSTRAINT "preorder_allocations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preorder_allocations" ADD CONSTRAINT "preorder_allocations_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preorder_allocation_orders_order_idx" ON "preorder_allocation_orders" USING btree ("order_id");