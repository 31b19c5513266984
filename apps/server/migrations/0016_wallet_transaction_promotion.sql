ALTER TABLE "wallet_transaction" ADD COLUMN "prmtn_cd" integer;
--> statement-breakpoint
ALTER TABLE "wallet_transaction" ADD COLUMN "src_wlt_cd" integer;
--> statement-breakpoint
ALTER TABLE "wallet_transaction" ADD CONSTRAINT "wallet_transaction_prmtn_cd_promotion_prmtn_cd_fk" FOREIGN KEY ("prmtn_cd") REFERENCES "public"."promotion"("prmtn_cd") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_transaction" ADD CONSTRAINT "wallet_transaction_src_wlt_cd_wallet_wlt_cd_fk" FOREIGN KEY ("src_wlt_cd") REFERENCES "public"."wallet"("wlt_cd") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "wallet_transaction_prmtn_cd_idx" ON "wallet_transaction" USING btree ("prmtn_cd");
--> statement-breakpoint
CREATE INDEX "wallet_transaction_src_wlt_cd_idx" ON "wallet_transaction" USING btree ("src_wlt_cd");
