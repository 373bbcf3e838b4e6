// ESLint rule local/import-cycles: no import cycle between two files of the project, and none
// between two folders of server/ (README, "Layers"). The folder check catches what a file check
// misses: access/a.ts → approvals/b.ts and approvals/c.ts → access/d.ts is no cycle of files, yet
// neither folder can be read, tested or moved without the other.
//
// Every import counts, type-only ones included: a type that goes both ways couples two modules
// as much as a value. The folder graph has one node per folder of server/ (nested folders belong
// to theirs) and per file directly in server/ (env.ts, log.ts, router.ts). It does not count
// - the imports made BY a composition root (server/router.ts, the REST route table, the panel's
//   tRPC endpoint and server caller): they assemble every domain, and only app/, scripts and
//   tests import them (no-restricted-imports in eslint.config.mjs sees to that);
// - the imports OF the adapter kit (trpc/init, trpc/meta, trpc/context: what a procedure is built
//   from; rest/plain-route, rest/outcome: what a plain route is built from): every domain folder
//   holds its procedures and routes beside its services, by design, and the kit may call a domain
//   service (trpc/init audits a denial).
//
// The linted file's imports are read from the source being linted, the other files' from disk
// (re-read when their mtime changes), so an editor shows a cycle as it is typed. Specifiers are
// resolved as tsconfig.json does here: relative, or `@/` for the project root.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const SOURCE = /\.(ts|tsx)$/;
const SKIPPED = /\.test\.tsx?$|\.d\.ts$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];
const RESCAN_MS = 1000;

const toPosix = (file) => file.split(path.sep).join("/");

/** Where a specifier points, relative to the project, or null (a package, a missing file). */
function resolveSpecifier(projectRoot, fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(projectRoot, specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../")) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    try {
      if (fs.statSync(candidate).isFile()) return toPosix(path.relative(projectRoot, candidate));
    } catch {
      // not this extension
    }
  }
  return null;
}

const snapshots = new Map();

/** file → the project files it imports, for every source file under `sources`, cached by mtime. */
function diskImports(projectRoot, sources) {
  const key = `${projectRoot}\0${sources.join()}`;
  const previous = snapshots.get(key);
  if (previous && Date.now() - previous.at < RESCAN_MS) return previous.files;
  const files = new Map();
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "generated") walk(full);
        continue;
      }
      if (!SOURCE.test(entry.name) || SKIPPED.test(entry.name)) continue;
      const file = toPosix(path.relative(projectRoot, full));
      const mtime = fs.statSync(full).mtimeMs;
      const cached = previous?.files.get(file);
      if (cached && cached.mtime === mtime) {
        files.set(file, cached);
        continue;
      }
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(full, "utf8"), true, true);
      const targets = [...new Set(importedFiles.map((i) => resolveSpecifier(projectRoot, full, i.fileName)).filter(Boolean))];
      files.set(file, { mtime, targets });
    }
  };
  for (const source of sources) walk(path.join(projectRoot, source));
  snapshots.set(key, { at: Date.now(), files });
  return files;
}

/** The shortest path from `start` to `goal` in `edges` (node → Map(next → why)), as its steps. */
function findPath(edges, start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length && !cameFrom.has(goal)) {
    const node = queue.shift();
    for (const [next, why] of edges.get(node) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, { from: node, to: next, why });
      queue.push(next);
    }
  }
  if (!cameFrom.has(goal)) return null;
  const steps = [];
  for (let node = goal; cameFrom.get(node); node = cameFrom.get(node).from) steps.unshift(cameFrom.get(node));
  return steps;
}

function addEdge(edges, from, to, why) {
  if (!edges.has(from)) edges.set(from, new Map());
  if (!edges.get(from).has(to)) edges.get(from).set(to, why);
}

/** @type {import("eslint").Rule.RuleModule} */
export const importCycles = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import cycles between files, and between the folders of server/ (README, Layers)." },
    schema: [
      {
        type: "object",
        properties: {
          projectRoot: { type: "string" },
          sources: { type: "array", items: { type: "string" } },
          folderRoot: { type: "string" },
          compositionRoots: { type: "array", items: { type: "string" } },
          kit: { type: "array", items: { type: "string" } },
        },
        required: ["projectRoot", "sources", "folderRoot"],
        additionalProperties: false,
      },
    ],
    messages: {
      fileCycle: "Import cycle: {{cycle}}. Move what both need into a third module, or one of them.",
      folderCycle:
        "Folder import cycle: {{cycle}}. This import is the step {{from}} → {{to}}; the way back: {{back}}. " +
        "Move the shared piece into the lower folder, so that imports between them go one way.",
    },
  },
  create(context) {
    const { projectRoot, sources, folderRoot, compositionRoots = [], kit = [] } = context.options[0];
    const file = toPosix(path.relative(projectRoot, context.physicalFilename));
    if (SKIPPED.test(file) || !sources.some((source) => file.startsWith(`${source}/`))) return {};

    const folderOf = (f) => {
      const parts = f.slice(folderRoot.length + 1).split("/");
      return parts.length > 1 ? `${folderRoot}/${parts[0]}` : f;
    };
    const inFolders = (f) => f.startsWith(`${folderRoot}/`);
    const folderEdge = (from, to) =>
      inFolders(from) &&
      inFolders(to) &&
      !compositionRoots.includes(from) &&
      !kit.includes(to) &&
      folderOf(from) !== folderOf(to);

    const imports = [];
    const collect = (node) => {
      if (node.source?.type !== "Literal" || typeof node.source.value !== "string") return;
      const target = resolveSpecifier(projectRoot, context.physicalFilename, node.source.value);
      if (target && target !== file) imports.push({ node, target });
    };
    return {
      ImportDeclaration: collect,
      ExportNamedDeclaration: collect,
      ExportAllDeclaration: collect,
      ImportExpression: collect,
      "Program:exit"() {
        if (imports.length === 0) return;
        // The graphs of the other files (from disk) and of this one (from its source).
        const files = new Map();
        const folders = new Map();
        const add = (from, to) => {
          addEdge(files, from, to, null);
          if (folderEdge(from, to)) addEdge(folders, folderOf(from), folderOf(to), `${from} imports ${to}`);
        };
        for (const [other, { targets }] of diskImports(projectRoot, sources)) {
          if (other !== file) for (const target of targets) add(other, target);
        }
        for (const { target } of imports) add(file, target);

        for (const { node, target } of imports) {
          const back = findPath(files, target, file);
          if (back) {
            const cycle = [file, ...back.map((step) => step.from), file].join(" → ");
            context.report({ node, messageId: "fileCycle", data: { cycle } });
            continue;
          }
          if (!folderEdge(file, target)) continue;
          const [here, there] = [folderOf(file), folderOf(target)];
          const way = findPath(folders, there, here);
          if (!way) continue;
          context.report({
            node,
            messageId: "folderCycle",
            data: {
              cycle: [here, ...way.map((step) => step.from), here].join(" → "),
              from: here,
              to: there,
              back: way.map((step) => step.why).join(", "),
            },
          });
        }
      },
    };
  },
};

export default { meta: { name: "local" }, rules: { "import-cycles": importCycles } };
