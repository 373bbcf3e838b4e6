-- AlterTable
ALTER TABLE "businesses" ADD COLUMN     "archived_at" TIMESTAMPTZ(3),
ADD COLUMN     "name_key" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "archived_at" TIMESTAMPTZ(3),
ADD COLUMN     "name_key" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "category_rules" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "field" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "project_id" UUID,
    "priority" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "category_rules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "category_rules_owner_id_priority_created_at_id_idx" ON "category_rules"("owner_id", "priority", "created_at", "id");

-- Names unique per owner (businesses) and per business (projects), case-insensitive: name_key
-- is lower(name), set by a trigger on every insert and rename, so no writer can bypass it.
CREATE FUNCTION name_key_of_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.name IS DISTINCT FROM OLD.name THEN
    NEW.name_key := lower(NEW.name);
  END IF;
  RETURN NEW;
END
$$;

-- Existing rows: the first of each name keeps lower(name); a later duplicate (made before the
-- rule) keeps its name, with its id appended to its key until it is renamed.
UPDATE "businesses" AS b SET "name_key" = CASE WHEN d.n = 1 THEN lower(b.name) ELSE lower(b.name) || '#' || b.id::text END
FROM (SELECT id, row_number() OVER (PARTITION BY owner_id, lower(name) ORDER BY created_at, id) AS n FROM "businesses") AS d
WHERE d.id = b.id;
UPDATE "projects" AS p SET "name_key" = CASE WHEN d.n = 1 THEN lower(p.name) ELSE lower(p.name) || '#' || p.id::text END
FROM (SELECT id, row_number() OVER (PARTITION BY business_id, lower(name) ORDER BY created_at, id) AS n FROM "projects") AS d
WHERE d.id = p.id;

CREATE TRIGGER businesses_name_key BEFORE INSERT OR UPDATE ON "businesses" FOR EACH ROW EXECUTE FUNCTION name_key_of_name();
CREATE TRIGGER projects_name_key BEFORE INSERT OR UPDATE ON "projects" FOR EACH ROW EXECUTE FUNCTION name_key_of_name();

-- CreateIndex
CREATE UNIQUE INDEX "businesses_owner_id_name_key_key" ON "businesses"("owner_id", "name_key");

-- CreateIndex
CREATE UNIQUE INDEX "projects_business_id_name_key_key" ON "projects"("business_id", "name_key");

-- AddForeignKey
ALTER TABLE "category_rules" ADD CONSTRAINT "category_rules_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
