"use client";
// The consent page's form (pinned-wave3 §2.2): the owner picks what the assistant may do (a
// passport template's suggested grants preselected, every grant and limit editable) and allows
// it, which creates the agent and sends the browser back to the assistant with a code; or
// refuses, which sends it back with error=access_denied. The redirect is a plain navigation
// (the panel's CSP form-action would stop a form posted across origins).
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { AgentForm } from "../agents/agent-form";
import type { TGrantRecord, TResourceOption } from "../agents/grants";

export type TConsentTemplate = { id: string; name: string; description: string; grants: TGrantRecord[] };

export type TConsentRequest = {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  state?: string;
  resource: string;
  scope?: string;
};

export function ConsentForm(props: {
  clientName: string;
  request: TConsentRequest;
  templates: TConsentTemplate[];
  initialTemplate: string;
  refuseHref: string;
  resources: TResourceOption[];
  defaultCurrency: string;
}) {
  const trpc = useTRPC();
  const [templateId, setTemplateId] = useState(props.initialTemplate);
  const template = props.templates.find((item) => item.id === templateId);
  const approve = useMutation(trpc.oauth.approve.mutationOptions());

  return (
    <div className="form">
      <div className="field">
        <label className="label" htmlFor="consent-template">
          Start from
        </label>
        <select
          id="consent-template"
          className="select"
          value={templateId}
          onChange={(event) => setTemplateId(event.target.value)}
        >
          {props.templates.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
          <option value="">No grants</option>
        </select>
        <span className="hint">
          {template ? template.description : "The assistant can read its own profile and ask you for more."}
        </span>
      </div>
      <AgentForm
        key={templateId}
        labelledBy="consent-heading"
        initial={{ name: props.clientName.slice(0, 100), grants: template?.grants ?? [], allowed_ip_ranges: [] }}
        resources={props.resources}
        defaultCurrency={props.defaultCurrency}
        submitLabel="Allow access"
        pendingLabel="Allowing…"
        onSubmit={async (values) => {
          const { data } = await approve.mutateAsync({
            ...props.request,
            code_challenge_method: "S256",
            name: values.name,
            grants: values.grants,
            allowed_ip_ranges: values.allowed_ip_ranges,
          });
          window.location.assign(data.redirect_to);
        }}
      />
      <a className="button button-secondary" href={props.refuseHref} data-testid="consent-refuse">
        Refuse
      </a>
    </div>
  );
}
