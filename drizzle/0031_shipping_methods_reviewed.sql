ALTER TABLE "shipping_methods" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
-- A shop that already runs: its methods count as checked by the seller, but for the examples of
-- 0014 left as they came (an example's name, never edited nor switched since: updated_at =
-- created_at), which wait to be opened and saved in /admin/shipping, as on a new shop. From now
-- on only the form's save sets reviewed_at (services/shipping-admin.server.ts).
UPDATE "shipping_methods" SET "reviewed_at" = "updated_at"
WHERE NOT ("updated_at" = "created_at" AND "name" IN ('Lettre suivie', 'Point relais', 'Colissimo à domicile', 'Colissimo Europe'));
