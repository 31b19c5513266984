ALTER TABLE "document_type" ADD COLUMN "doc_typ_for" varchar(60);
