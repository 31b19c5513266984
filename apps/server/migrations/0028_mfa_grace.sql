ALTER TABLE "mfa_factor" ADD COLUMN "mfa_grace_until" timestamp with time zone;
