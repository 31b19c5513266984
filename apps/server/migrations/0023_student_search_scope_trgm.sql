-- Quick search of students within the request's institute and year (issue 10): the trigram index of the
-- search expression (student_search_trgm) covers every institute, so a 4-letter name prefix fetched the
-- matches of all 20 institutes and filtered them (16 ms) and a full page's count tested the LIKE on every row
-- of the institute (9-11 ms). With the scope columns in the same GIN index (btree_gin) the bitmap holds only
-- the institute's year: 1.1 ms and 0.15 ms at 200,000 students (bench/scale/generic-plans.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "student_search_scope_trgm" ON "student" USING gin ("inst_cd", "acdm_cd", (lower(coalesce("stud_fs_nm", '') || ' ' || coalesce("stud_ph", ''))) gin_trgm_ops);
