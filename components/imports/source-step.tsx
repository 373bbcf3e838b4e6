"use client";
// Step 1: where the statement's rows go (the business), how it is read (the preset, with what
// it expects), the currency for rows without one, and whether rows are matched against the
// events integrations already delivered.
import type { TImportPresetDto } from "@/server/imports/import.schema";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { BusinessField } from "../integrations/business-field";
import type { TBusinessOption } from "../integrations/use-businesses";
import { CardHeader } from "../ui/card";
import { Field, FormAlert } from "../ui/field";
import { useHydrated } from "../ui/use-hydrated";

export type TImportSettings = {
  businessId: string;
  preset: string;
  currencyDefault: string;
  /** The bank account the statement comes from (the upload step asks), "" for none. */
  account: string;
  reconcile: boolean;
};

export function SourceStep(props: {
  settings: TImportSettings;
  onChange: (settings: TImportSettings) => void;
  businesses: TBusinessOption[];
  loadingBusinesses: boolean;
  presets: TImportPresetDto[];
  loadingPresets: boolean;
  presetsFailed: boolean;
  onContinue: () => void;
}) {
  const hydrated = useHydrated();
  const { settings } = props;
  const set = (patch: Partial<TImportSettings>) => props.onChange({ ...settings, ...patch });
  const preset = props.presets.find((p) => p.id === settings.preset);
  const business = props.businesses.find((b) => b.id === settings.businessId);
  const ready = hydrated && settings.businessId !== "" && preset !== undefined;

  return (
    <section className="card" aria-labelledby="import-source-heading">
      <CardHeader
        headingId="import-source-heading"
        title="Statement source"
        description="Choose the business the statement belongs to and how its columns are read."
      />
      <div className="card-body">
        <form
          className="form"
          aria-labelledby="import-source-heading"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (ready) props.onContinue();
          }}
        >
          <FormAlert message={props.presetsFailed ? "The presets could not be loaded. Reload the page to try again." : null} />
          <BusinessField
            businesses={props.businesses}
            loading={props.loadingBusinesses}
            value={settings.businessId}
            onChange={(businessId) => set({ businessId })}
          />
          <Field
            label="Preset"
            hint={
              preset
                ? preset.description
                : props.loadingPresets
                  ? "Loading the bank presets…"
                  : "How the statement's columns, dates and amounts are read."
            }
          >
            {(control) => (
              <select
                {...control}
                className="select"
                value={settings.preset}
                disabled={props.loadingPresets || props.presets.length === 0}
                onChange={(event) => set({ preset: event.target.value })}
              >
                {props.loadingPresets ? <option value="">Loading presets…</option> : null}
                {!props.loadingPresets && !preset ? (
                  <option value="" disabled>
                    Choose a preset
                  </option>
                ) : null}
                {props.presets.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Default currency"
            hint="For rows whose statement has no currency column or cell. You can change it after the upload."
          >
            {(control) => (
              <select
                {...control}
                className="select"
                value={settings.currencyDefault}
                onChange={(event) => set({ currencyDefault: event.target.value })}
              >
                <option value="">
                  {business ? `The business's currency (${business.currency})` : "The business's currency"}
                </option>
                {COMMON_CURRENCIES.map((currency) => (
                  <option key={currency.code} value={currency.code}>
                    {currency.code} — {currency.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={settings.reconcile}
                onChange={(event) => set({ reconcile: event.target.checked })}
                aria-describedby="import-reconcile-hint"
              />
              <span>Reconcile with integrations</span>
            </label>
            <p className="hint" id="import-reconcile-hint">
              A row with the same amount, currency and direction as an event an integration delivered within 3 days is marked
              reconciled and kept out of the totals.
            </p>
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!ready}>
              Continue
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
