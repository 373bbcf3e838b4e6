"use client";
// A business's projects, newest first, with the "New project" form beside them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TProject } from "@/server/projects/project.schema";
import type { TPage } from "@/server/shared/pagination";
import { ListCard } from "../panel/list-card";
import { useCursorList } from "../panel/use-cursor-list";
import { CardSection } from "../ui/card";
import { createdColumn, DataTable, type TColumn } from "../ui/data-table";
import { CreateForm, NameField, useCreateFormState } from "../ui/create-form";
import { EmptyState } from "../ui/empty-state";
import { PROJECTS_PAGE_SIZE } from "../panel/page-size";
import { FolderIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";
import { RecordActions } from "../businesses/record-actions";

export type TProjectPage = { data: TProject[]; page: TPage };

const COLUMNS: TColumn<TProject>[] = [
  {
    header: "Name",
    cellClassName: "cell-name",
    cell: (project) => (
      <>
        <span>{project.name}</span>
        {project.status === "archived" ? (
          <>
            {" "}
            <StatusPill status="archived" />
          </>
        ) : null}
        <RecordActions kind="project" record={project} />
      </>
    ),
  },
  createdColumn(),
];

export function ProjectsView({ businessId, initialPage }: { businessId: string; initialPage: TProjectPage }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { id: businessId, limit: PROJECTS_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.projects.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.projects.find.query({ ...input, cursor }, { signal }),
    initialPage,
  });

  return (
    <div className="split">
      <ListCard
        headingId="projects-heading"
        title="Projects"
        noun={["project", "projects"]}
        list={list}
        empty={
          <EmptyState icon={<FolderIcon />} title="No projects yet">
            Projects split a business&apos;s money by client, product or campaign. Add the first one with the form.
          </EmptyState>
        }
      >
        <DataTable columns={COLUMNS} items={list.items} scroll />
      </ListCard>
      <CardSection headingId="new-project-heading" title="New project">
        <div className="card-body">
          <NewProjectForm businessId={businessId} />
        </div>
      </CardSection>
    </div>
  );
}

const FIELDS = ["name"] as const;

function NewProjectForm({ businessId }: { businessId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const router = useRouter();
  const nameRef = useRef<HTMLInputElement>(null);

  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess: async ({ data }) => {
        form.succeeded(data.name);
        if (nameRef.current) nameRef.current.value = "";
        await queryClient.invalidateQueries({ queryKey: trpc.projects.find.pathKey() });
        // The server-rendered sections beside the list (the Projects tab's health) count it too.
        router.refresh();
      },
      onError: (error) => {
        if (form.failed(error).fields.name) nameRef.current?.focus();
      },
    }),
  );

  return (
    <CreateForm
      state={form}
      labelledBy="new-project-heading"
      pending={create.isPending}
      submitLabel="Create project"
      onSubmit={() => create.mutate({ id: businessId, name: nameRef.current?.value ?? "" })}
    >
      <NameField state={form} inputRef={nameRef} label="Project name" autoComplete="off" placeholder="e.g. Website redesign" />
    </CreateForm>
  );
}
