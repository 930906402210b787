-- Organization-wide API keys (`mk_global_…`): a key without a region of its own. NULL region
-- means the key may name any region the organization is allowed (and fans out reads).
ALTER TABLE "public"."api_keys" ALTER COLUMN "region" DROP NOT NULL;
