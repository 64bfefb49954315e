-- Uploaded files (avatars, match evidence, feedback screenshots) with FILE_STORE=postgres, the
-- default (storage/postgres-file-store.ts): every server process on the database serves them.
CREATE TABLE stored_files (
  -- storage/file-store.ts checkKey: server-made paths that cannot climb out of a folder.
  key text PRIMARY KEY CHECK (key ~ '^[a-z0-9][a-z0-9/._-]{0,200}$' AND strpos(key, '..') = 0),
  content_type text NOT NULL CHECK (content_type ~ '^[a-z]+/[a-z0-9.+-]{1,100}$'),
  -- SPEC's upload limit, 5 MB.
  size integer NOT NULL CHECK (size BETWEEN 0 AND 5242880),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT stored_files_size_is_data CHECK (size = octet_length(data))
);

-- Images arrive compressed already: kept out of line without a second, wasted compression.
ALTER TABLE stored_files ALTER COLUMN data SET STORAGE EXTERNAL;
