ALTER TABLE "book_checkin" ADD COLUMN "bk_chk_idem_key" varchar(64);
--> statement-breakpoint
CREATE UNIQUE INDEX "book_checkin_bk_chk_idem_key_uq" ON "book_checkin" USING btree ("inst_cd",lower("bk_chk_idem_key"));
