-- Trigram indexes back card-name search; available in PostgreSQL contrib and in PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
