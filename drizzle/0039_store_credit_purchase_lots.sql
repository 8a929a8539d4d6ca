CREATE TABLE "purchase_lots" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "purchase_lots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"remaining" integer NOT NULL,
	"unit_cost_cents" integer NOT NULL,
	"source" text NOT NULL,
	"source_ref" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_lot_quantity_positive" CHECK ("purchase_lots"."quantity" > 0),
	CONSTRAINT "purchase_lot_remaining_in_range" CHECK ("purchase_lots"."remaining" >= 0 and "purchase_lots"."remaining" <= "purchase_lots"."quantity"),
	CONSTRAINT "purchase_lot_cost_non_negative" CHECK ("purchase_lots"."unit_cost_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_credit_accounts" (
	"email" text PRIMARY KEY NOT NULL,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_balance_non_negative" CHECK ("store_credit_accounts"."balance_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_credit_movements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_credit_movements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_after_cents" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"author" text NOT NULL,
	"order_id" uuid,
	"source_ref" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_credit_movement_not_zero" CHECK ("store_credit_movements"."amount_cents" <> 0),
	CONSTRAINT "store_credit_movement_balance_non_negative" CHECK ("store_credit_movements"."balance_after_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchase_lots" ADD CONSTRAINT "purchase_lots_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_movements" ADD CONSTRAINT "store_credit_movements_email_store_credit_accounts_email_fk" FOREIGN KEY ("email") REFERENCES "public"."store_credit_accounts"("email") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_credit_movements" ADD CONSTRAINT "store_credit_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchase_lots_product_idx" ON "purchase_lots" USING btree ("product_id","received_at","id");--> statement-breakpoint
CREATE INDEX "store_credit_movements_email_idx" ON "store_credit_movements" USING btree ("email","id");--> statement-breakpoint
-- hand-written: the ledger is append-only (a correction is a new movement).
CREATE OR REPLACE FUNCTION store_credit_movements_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'store_credit_movements is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER store_credit_movements_no_change BEFORE UPDATE OR DELETE ON "store_credit_movements"
  FOR EACH ROW EXECUTE FUNCTION store_credit_movements_append_only();
