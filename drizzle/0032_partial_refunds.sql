CREATE TABLE "order_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "order_refunds_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_cents" integer NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shipping_cents" integer DEFAULT 0 NOT NULL,
	"insurance_cents" integer DEFAULT 0 NOT NULL,
	"adjustment_kind" text,
	"adjustment_cents" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"parts" jsonb DEFAULT '{"shipping":[],"insurance":[],"adjustment":[]}'::jsonb NOT NULL,
	"vat_breakdown" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"margin_scheme_cents" integer DEFAULT 0 NOT NULL,
	"closes_order" boolean DEFAULT false NOT NULL,
	"provider_refund_id" text,
	"credit_note_number" text,
	"last_error" text,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "order_refunds_amount_positive" CHECK ("order_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_order_kind";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_address" jsonb;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_request_idx" ON "order_refunds" USING btree ("order_id","request_key");--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refunds_refunded_at_idx" ON "order_refunds" USING btree ("refunded_at") WHERE "order_refunds"."refunded_at" is not null;--> statement-breakpoint
CREATE INDEX "order_refunds_pending_idx" ON "order_refunds" USING btree ("created_at") WHERE "order_refunds"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_invoice" ON "invoices" USING btree ("order_id") WHERE "invoices"."kind" = 'invoice';--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id","kind");--> statement-breakpoint
-- Refunds made before this migration were whole: one refund row each, closing its order.
INSERT INTO "order_refunds" ("order_id", "request_key", "status", "amount_cents", "lines", "shipping_cents", "insurance_cents", "vat_breakdown", "margin_scheme_cents", "closes_order", "provider_refund_id", "credit_note_number", "created_at", "refunded_at")
SELECT o."id", 'whole', 'refunded', o."total_cents",
  coalesce((SELECT jsonb_agg(jsonb_build_object(
      'orderItemId', i."id"::text, 'name', i."name", 'quantity', i."quantity", 'unitPriceCents', i."unit_price_cents",
      'totalCents', i."unit_price_cents" * i."quantity" - i."discount_share_cents",
      'rateBp', CASE WHEN i."vat_scheme" = 'normal' AND o."vat_regime" = 'normal' THEN to_jsonb(i."vat_rate_bp") ELSE 'null'::jsonb END,
      'vatScheme', i."vat_scheme", 'restock', true) ORDER BY i."name")
    FROM "order_items" i WHERE i."order_id" = o."id"), '[]'::jsonb),
  o."shipping_cents", o."insurance_cents", o."vat_breakdown",
  CASE WHEN o."vat_regime" = 'normal' THEN coalesce((SELECT sum(i."unit_price_cents" * i."quantity" - i."discount_share_cents") FROM "order_items" i WHERE i."order_id" = o."id" AND i."vat_scheme" = 'margin'), 0) ELSE 0 END,
  true, o."refund_reference",
  (SELECT c."number" FROM "invoices" c WHERE c."order_id" = o."id" AND c."kind" = 'credit_note' ORDER BY c."sequence" LIMIT 1),
  coalesce(o."refunded_at", o."updated_at"), coalesce(o."refunded_at", o."updated_at")
FROM "orders" o
WHERE o."status" = 'refunded' AND o."total_cents" > 0;
