-- The brands' product-safety profiles (GPSR, Reg. 2023/988 art. 19) a new shop starts with; the
-- seller completes them at /admin/product-safety. Only what is known for sure is written: an address
-- or an e-mail left empty shows the profile as incomplete there and "Non renseigné" on the product
-- pages, never a made-up value. The warning is the age warning TCG products carry.
INSERT INTO "safety_profiles" ("brand", "manufacturer_name", "postal_address", "email", "warnings") VALUES
  ('Pokémon', 'The Pokémon Company International, Inc.', '', '', 'Ne convient pas aux enfants de moins de 3 ans.'),
  ('Magic', 'Wizards of the Coast LLC', E'PO Box 707\nRenton, WA 98057-0707\nÉtats-Unis', '', 'Ne convient pas aux enfants de moins de 3 ans.'),
  ('One Piece', 'Bandai Co., Ltd.', '', '', 'Ne convient pas aux enfants de moins de 3 ans.')
ON CONFLICT ("brand") DO NOTHING;
--> statement-breakpoint
-- A brand's profile shows on every product page of the brand: a change to one purges the cached
-- pages and refreshes the open ones, as a change of site content does (drizzle/0002).
CREATE TRIGGER safety_profiles_notify_change
AFTER INSERT OR UPDATE OR DELETE ON "safety_profiles"
FOR EACH STATEMENT EXECUTE FUNCTION notify_site_change();
