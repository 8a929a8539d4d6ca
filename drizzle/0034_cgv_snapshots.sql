CREATE TABLE "cgv_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hash" text NOT NULL,
	"blocks" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cgv_snapshots_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "cgv_snapshot_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cgv_snapshot_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_cgv_snapshot_id_cgv_snapshots_id_fk" FOREIGN KEY ("cgv_snapshot_id") REFERENCES "public"."cgv_snapshots"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cgv_snapshot_id_cgv_snapshots_id_fk" FOREIGN KEY ("cgv_snapshot_id") REFERENCES "public"."cgv_snapshots"("id") ON DELETE restrict ON UPDATE no action;