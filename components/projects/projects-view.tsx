"use client";
// A business's projects, newest first, with the "New project" form beside them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import type { TProject } from "@/server/projects/project.schema";
import type { TPage } from "@/server/shared/pagination";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { EmptyState } from "../ui/empty-state";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { PROJECTS_PAGE_SIZE } from "../panel/page-size";
import { FolderIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";

export type TProjectPage = { data: TProject[]; page: TPage };

export function ProjectsView({ businessId, initialPage }: { businessId: string; initialPage: TProjectPage }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { id: businessId, limit: PROJECTS_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.projects.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.projects.find.query({ ...input, cursor }, { signal }),
    initialPage,
  });
  const projects = list.items;

  return (
    <div className="split">
      <section className="card" aria-labelledby="projects-heading">
        <div className="card-header">
          <h2 id="projects-heading">Projects</h2>
          {projects.length > 0 ? (
            <span className="count">
              {projects.length}
              {list.hasNextPage ? "+" : ""} {projects.length === 1 ? "project" : "projects"}
            </span>
          ) : null}
        </div>
        {projects.length === 0 ? (
          <EmptyState icon={<FolderIcon />} title="No projects yet">
            Projects split a business&apos;s money by client, product or campaign. Add the first one with the form.
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="cell-right">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {projects.map((project) => (
                <tr key={project.id}>
                  <td className="cell-name">{project.name}</td>
                  <td className="cell-date cell-right">
                    <DateTime iso={project.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list.isFetchNextPageError ? (
          <div className="card-body">
            <FormAlert message="The next page could not be loaded. Try again." />
          </div>
        ) : null}
        {list.hasNextPage ? (
          <div className="card-footer">
            <button
              type="button"
              className="button button-secondary"
              onClick={() => void list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? <span className="spinner" aria-hidden="true" /> : null}
              {list.isFetchingNextPage ? "Loading…" : "Load more"}
            </button>
          </div>
        ) : null}
      </section>
      <section className="card" aria-labelledby="new-project-heading">
        <div className="card-header">
          <h2 id="new-project-heading">New project</h2>
        </div>
        <div className="card-body">
          <NewProjectForm businessId={businessId} />
        </div>
      </section>
    </div>
  );
}

const NO_ERRORS: TFormError = { fields: {}, summary: null };

function NewProjectForm({ businessId }: { businessId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  // Uncontrolled (read on submit), so text typed before hydration is kept.
  const nameRef = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [created, setCreated] = useState<string | null>(null);

  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess: async ({ data }) => {
        setErrors(NO_ERRORS);
        setCreated(data.name);
        if (nameRef.current) nameRef.current.value = "";
        await queryClient.invalidateQueries({ queryKey: trpc.projects.find.pathKey() });
      },
      onError: (error) => {
        const formError = formErrorOf(error, ["name"]);
        setErrors(formError);
        setCreated(null);
        if (formError.fields.name) nameRef.current?.focus();
      },
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ id: businessId, name: nameRef.current?.value ?? "" });
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="new-project-heading">
      <FormAlert message={errors.summary} />
      <Field label="Project name" error={errors.fields.name}>
        {(control) => (
          <input
            {...control}
            ref={nameRef}
            className="input"
            name="name"
            autoComplete="off"
            placeholder="e.g. Website redesign"
            maxLength={200}
            defaultValue=""
            onChange={() => {
              setCreated(null);
              if (errors.fields.name) setErrors({ ...errors, fields: {} });
            }}
          />
        )}
      </Field>
      <div className="form-actions">
        <SubmitButton pending={create.isPending} disabled={!hydrated} pendingLabel="Creating…">
          Create project
        </SubmitButton>
      </div>
      <p className="notice" role="status">
        {created ? `${created} was added.` : ""}
      </p>
    </form>
  );
}
