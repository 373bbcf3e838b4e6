"use client";
// The statement import: 1. where it goes and how it is read, 2. the upload (with its progress),
// 3. the preview (rows, counts, recurring charges) and Confirm, 4. what was booked.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { TCreateImportResult, TImportResult } from "@/server/imports/import.schema";
import { useBusinesses } from "../integrations/use-businesses";
import { MappingStep } from "./mapping-step";
import { PreviewStep } from "./preview-step";
import { ResultStep } from "./result-step";
import { SourceStep, type TImportSettings } from "./source-step";
import { UploadStep } from "./upload-step";

type TStep = "source" | "upload" | "preview" | "done";

const STEPS: ReadonlyArray<{ step: TStep; label: string }> = [
  { step: "source", label: "Source" },
  { step: "upload", label: "Upload" },
  { step: "preview", label: "Columns and preview" },
  { step: "done", label: "Done" },
];

const DEFAULT_PRESET = "generic";

function Steps({ current }: { current: TStep }) {
  const at = STEPS.findIndex((s) => s.step === current);
  return (
    <ol className="import-steps" aria-label="Import steps">
      {STEPS.map((s, index) => (
        <li
          key={s.step}
          className={
            index < at ? "import-step import-step-done" : index === at ? "import-step import-step-current" : "import-step"
          }
          aria-current={index === at ? "step" : undefined}
        >
          <span className="import-step-number" aria-hidden="true">
            {index + 1}
          </span>
          {s.label}
        </li>
      ))}
    </ol>
  );
}

export function ImportsWizard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const presets = useQuery(trpc.imports.presets.queryOptions({}));
  const { businesses, isPending: loadingBusinesses } = useBusinesses();
  const [step, setStep] = useState<TStep>("source");
  const [settings, setSettings] = useState<TImportSettings>({
    businessId: "",
    preset: "",
    currencyDefault: "",
    account: "",
    reconcile: true,
  });
  const [upload, setUpload] = useState<{ created: TCreateImportResult; fileName: string; version: number } | null>(null);
  const [repreviewing, setRepreviewing] = useState(false);
  const [result, setResult] = useState<TImportResult | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const presetList = presets.data?.data ?? [];
  // The generic preset until the owner picks another (once the list has arrived).
  const presetId = settings.preset || (presetList.some((p) => p.id === DEFAULT_PRESET) ? DEFAULT_PRESET : "");
  const effective = { ...settings, preset: presetId };
  const business = businesses.find((b) => b.id === settings.businessId);
  const preset = presetList.find((p) => p.id === presetId);

  function startOver() {
    setUpload(null);
    setResult(null);
    setNotice(null);
    setStep("source");
  }

  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <Steps current={step} />
      {step === "source" ? (
        <SourceStep
          settings={effective}
          onChange={setSettings}
          businesses={businesses}
          loadingBusinesses={loadingBusinesses}
          presets={presetList}
          loadingPresets={presets.isPending}
          presetsFailed={presets.isError}
          onContinue={() => setStep("upload")}
        />
      ) : null}
      {step === "upload" ? (
        <UploadStep
          settings={effective}
          onAccountChange={(account) => setSettings((current) => ({ ...current, account }))}
          businessName={business?.name ?? "your business"}
          presetName={preset?.name ?? presetId}
          notice={notice}
          onBack={() => setStep("source")}
          onUploaded={(created, file) => {
            setUpload({ created, fileName: file.name, version: 0 });
            // The history lists the new preview.
            void queryClient.invalidateQueries({ queryKey: trpc.imports.find.pathKey() });
            setNotice(null);
            setStep("preview");
          }}
        />
      ) : null}
      {step === "preview" && upload ? (
        <MappingStep
          key={upload.created.import_id}
          created={upload.created}
          disabled={false}
          onPending={setRepreviewing}
          onPreviewed={(created) => setUpload((current) => current && { ...current, created, version: current.version + 1 })}
        />
      ) : null}
      {step === "preview" && upload ? (
        <PreviewStep
          key={`${upload.created.import_id}-${upload.version}`}
          created={upload.created}
          businessId={settings.businessId}
          busy={repreviewing}
          fileName={upload.fileName}
          onConfirmed={(answer) => {
            // The confirm remembered the mapping for the upload's account: the next upload offers it.
            void queryClient.invalidateQueries({ queryKey: trpc.imports.accounts.pathKey() });
            void queryClient.invalidateQueries({ queryKey: trpc.imports.find.pathKey() });
            setResult(answer);
            setStep("done");
          }}
          onExpired={() => {
            setUpload(null);
            setNotice("The preview expired before it was confirmed: upload the statement again.");
            setStep("upload");
          }}
          onStartOver={startOver}
        />
      ) : null}
      {step === "done" && result ? (
        <ResultStep result={result} businessName={business?.name ?? "your business"} onAnother={startOver} />
      ) : null}
    </div>
  );
}
