-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "reverted_at" TIMESTAMPTZ(3);
