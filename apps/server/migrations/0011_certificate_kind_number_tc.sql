DROP INDEX "certificate_search_trgm";
--> statement-breakpoint
ALTER TABLE "certificate" ALTER COLUMN "cert_fct_nm" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_nmb" integer;
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_typ" varchar(60);
--> statement-breakpoint
-- Existing certificates get their kind from their name (the demo and the office named them so), the rest are bonafide.
UPDATE "certificate" SET "cert_fct_typ" = CASE WHEN "cert_fct_nm" ILIKE '%transfer%' OR "cert_fct_nm" ~* '(^|[^a-z])tc([^a-z]|$)' THEN 'Transfer Certificate' WHEN "cert_fct_nm" ILIKE '%conduct%' THEN 'Conduct' ELSE 'Bonafide' END;
--> statement-breakpoint
ALTER TABLE "certificate" ALTER COLUMN "cert_fct_typ" SET NOT NULL;
--> statement-breakpoint
-- Numbers for certificates already issued: each institute's one series in the order they were issued.
UPDATE "certificate" c SET "cert_fct_nmb" = n.k FROM (SELECT "cert_fct_cd", row_number() OVER (PARTITION BY "inst_cd" ORDER BY "cert_fct_crt_dt" NULLS FIRST, "cert_fct_cd")::int AS k FROM "certificate") n WHERE n."cert_fct_cd" = c."cert_fct_cd";
--> statement-breakpoint
-- Printing is the certificate page's new 'print' button: whoever issues certificates (holds 'create') prints them.
UPDATE "user_permission" SET "usr_prms_btns" = "usr_prms_btns" || ',print' WHERE "usr_prms_mdl" = 'student' AND "usr_prms_page" = 'certificate' AND (',' || "usr_prms_btns" || ',') LIKE '%,create,%' AND (',' || "usr_prms_btns" || ',') NOT LIKE '%,print,%';
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_prps" varchar(200);
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_lvng_dt" date;
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_lvng_rsn" varchar(200);
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_cndct" varchar(60);
--> statement-breakpoint
ALTER TABLE "certificate" ADD COLUMN "cert_fct_rmks" varchar(500);
--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_cert_fct_nmb_uq" ON "certificate" USING btree ("inst_cd","acdm_cd","cert_fct_nmb");
--> statement-breakpoint
CREATE INDEX "certificate_search_trgm" ON "certificate" USING gin ((lower(coalesce("cert_fct_typ", '') || ' ' || coalesce("cert_fct_nm", ''))) gin_trgm_ops);
