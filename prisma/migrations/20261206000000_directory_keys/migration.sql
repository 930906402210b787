-- Directory (issue 11): a slug is reserved before its organization exists (released if the create
-- fails), and a cell's signing key rotates: the new version is current while the previous one is
-- still accepted until `previous_key_until`. No key is stored: each is derived from the
-- directory's secret (HKDF over region and version, server/directory/keys.ts).
ALTER TYPE "directory"."DirectoryWorkspaceStatus" ADD VALUE IF NOT EXISTS 'reserved';

ALTER TABLE "directory"."regions"
    ADD COLUMN "previous_key_version" INTEGER,
    ADD COLUMN "previous_key_until" TIMESTAMPTZ(3);
