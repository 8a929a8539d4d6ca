CREATE TABLE "buyback_offers" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"lines" jsonb NOT NULL,
	"bonus_percent" integer NOT NULL,
	"link_expires_at" timestamp with time zone NOT NULL,
	"pending_lines" jsonb,
	"payment_means" text,
	"accepted_total_cents" integer,
	"accepted_at" timestamp with time zone,
	"seller_address" text,
	"account_holder" text,
	"iban" text,
	"id_type" text,
	"id_number" text,
	"id_authority" text,
	"id_issued_on" date,
	"received_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"paid_cents" integer,
	"transfer_paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyback_offer_version_positive" CHECK ("buyback_offers"."version" > 0)
);
--> statement-breakpoint
CREATE TABLE "purchase_register_entries" (
	"number" integer PRIMARY KEY NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"message_id" uuid,
	"seller_name" text NOT NULL,
	"seller_address" text NOT NULL,
	"id_type" text NOT NULL,
	"id_number" text NOT NULL,
	"id_authority" text NOT NULL,
	"id_issued_on" date NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"payment_means" text NOT NULL,
	"corrects_number" integer,
	"correction_reason" text,
	"author_id" text,
	CONSTRAINT "purchase_register_quantity_positive" CHECK ("purchase_register_entries"."quantity" > 0),
	CONSTRAINT "purchase_register_price_non_negative" CHECK ("purchase_register_entries"."unit_price_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "buyback_offers" ADD CONSTRAINT "buyback_offers_message_id_inbox_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."inbox_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyback_offers_completed_idx" ON "buyback_offers" USING btree ("completed_at");--> statement-breakpoint
CREATE INDEX "purchase_register_recorded_idx" ON "purchase_register_entries" USING btree ("recorded_at");--> statement-breakpoint
-- hand-written: the register's numbering, and its entries never change (a correction is a new entry).
INSERT INTO document_sequences (kind, last_value) VALUES ('purchase_register', 0) ON CONFLICT (kind) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION purchase_register_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'purchase_register_entries is append-only';
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS purchase_register_no_change ON "purchase_register_entries";
--> statement-breakpoint
CREATE TRIGGER purchase_register_no_change BEFORE UPDATE OR DELETE ON "purchase_register_entries"
  FOR EACH ROW EXECUTE FUNCTION purchase_register_append_only();
