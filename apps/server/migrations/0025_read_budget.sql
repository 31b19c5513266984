CREATE TABLE "read_budget" (
	"usr_cd" integer PRIMARY KEY NOT NULL,
	"rdb_window_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rdb_rows" integer DEFAULT 0 NOT NULL,
	"rdb_blocked_at" timestamp with time zone,
	"rdb_blocked_rows" integer
);
