"use client";
// The "Business" select of the connect forms: the owner's businesses, or a way to create one
// when there are none yet.
import Link from "next/link";
import { Field } from "../ui/field";
import type { TBusinessOption } from "./use-businesses";

/** The business field's error when the owner has not chosen one (there is no default). */
export const CHOOSE_BUSINESS = "Choose the business this connection's events belong to.";

export function BusinessField(props: {
  businesses: TBusinessOption[];
  loading: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  const none = !props.loading && props.businesses.length === 0;
  return (
    <Field
      label="Business"
      error={props.error}
      hint={
        none ? (
          <>
            You have no business yet: <Link href="/businesses">create one</Link> first.
          </>
        ) : (
          "Its events and alerts are recorded for this business."
        )
      }
    >
      {(control) => (
        <select
          {...control}
          className="select"
          value={props.value}
          disabled={props.loading || none}
          onChange={(event) => props.onChange(event.target.value)}
        >
          {props.loading ? <option value="">Loading businesses…</option> : null}
          {none ? <option value="">No businesses</option> : null}
          {!props.loading && !none ? <option value="">Choose a business</option> : null}
          {props.businesses.map((business) => (
            <option key={business.id} value={business.id}>
              {business.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
