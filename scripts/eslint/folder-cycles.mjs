// ESLint rule local/folder-cycles: no import cycle between the folders of server/ (README, "A map
// of the code"). A file-level cycle rule misses these: access/a.ts → approvals/b.ts and
// approvals/c.ts → access/d.ts is no cycle of files, yet neither folder can be read, tested or
// moved without the other.
//
// The graph: one node per folder of server/ (server/ingest/…, nested folders included) and per
// file directly in server/ (env.ts, log.ts, router.ts); an edge for every import, type-only
// imports included. Not edges:
// - imports made BY a composition root (server/router.ts, the REST route table, the panel's tRPC
//   endpoint and server caller): they assemble every domain, and only app/, scripts and tests
//   import them (no-restricted-imports in eslint.config.mjs sees to that);
// - imports OF the adapter kit (trpc/init, trpc/meta, trpc/context: what a procedure is built
//   from; rest/plain-route, rest/outcome: what a plain route is built from): every domain folder
//   holds its own procedures and routes beside its services, by design, and the kit may call a
//   domain service (trpc/init audits a denial).
// The linted file's imports come from its source being linted; the other files' from disk
// (re-read when their mtime changes), so an editor sees a cycle as it is typed.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const SOURCE = /\.(ts|tsx)$/;
const SKIPPED = /\.test\.tsx?$|\.d\.ts$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];
const RESCAN_MS = 1000;

/** Where a specifier points, as a path relative to the project, or null (a package, a missing file). */
function resolveSpecifier(projectRoot, fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(projectRoot, specifier.slice(2));
  else if (specifier.startsWith("./") || specifier.startsWith("../")) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    try {
      if (fs.statSync(candidate).isFile()) return path.relative(projectRoot, candidate).split(path.sep).join("/");
    } catch {
      // not this extension
    }
  }
  return null;
}

/** server/ingest/x.ts and server/ingest/sub/y.ts → server/ingest; server/env.ts → server/env.ts. */
function nodeOf(root, file) {
  const rest = file.slice(root.length + 1).split("/");
  return rest.length > 1 ? `${root}/${rest[0]}` : file;
}

const snapshots = new Map();

/** Every source file under `root` with the files it imports, cached by mtime. */
function diskImports(projectRoot, root) {
  const key = `${projectRoot}\0${root}`;
  const previous = snapshots.get(key);
  if (previous && Date.now() - previous.at < RESCAN_MS) return previous.files;
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "generated") walk(full);
        continue;
      }
      if (!SOURCE.test(entry.name) || SKIPPED.test(entry.name)) continue;
      const file = path.relative(projectRoot, full).split(path.sep).join("/");
      const mtime = fs.statSync(full).mtimeMs;
      const cached = previous?.files.get(file);
      if (cached && cached.mtime === mtime) {
        files.set(file, cached);
        continue;
      }
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(full, "utf8"), true, true);
      const targets = importedFiles.map((i) => resolveSpecifier(projectRoot, full, i.fileName)).filter(Boolean);
      files.set(file, { mtime, targets });
    }
  };
  walk(path.join(projectRoot, root));
  snapshots.set(key, { at: Date.now(), files });
  return files;
}

/** The shortest folder path from `start` to `goal`, each step with a file import that makes it. */
function findPath(edges, start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    if (node === goal) break;
    for (const [next, witness] of edges.get(node) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, { node, witness });
      queue.push(next);
    }
  }
  if (!cameFrom.has(goal)) return null;
  const steps = [];
  for (let node = goal; cameFrom.get(node); node = cameFrom.get(node).node) steps.unshift(cameFrom.get(node));
  return steps;
}

/** @type {import("eslint").Rule.RuleModule} */
export const folderCycles = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import cycles between the folders of server/ (the layer order of the README's code map)." },
    schema: [
      {
        type: "object",
        properties: {
          projectRoot: { type: "string" },
          root: { type: "string" },
          compositionRoots: { type: "array", items: { type: "string" } },
          kit: { type: "array", items: { type: "string" } },
        },
        required: ["projectRoot", "root"],
        additionalProperties: false,
      },
    ],
    messages: {
      cycle:
        "Folder import cycle: {{cycle}}. This import is the step {{from}} → {{to}}; the way back: {{back}}. " +
        "Move the shared piece into the lower folder (or down a layer), so that imports go one way only.",
    },
  },
  create(context) {
    const { projectRoot, root, compositionRoots = [], kit = [] } = context.options[0];
    const file = path.relative(projectRoot, context.physicalFilename).split(path.sep).join("/");
    if (!file.startsWith(`${root}/`) || SKIPPED.test(file) || compositionRoots.includes(file)) return {};
    const counts = (from, to) => !compositionRoots.includes(from) && !kit.includes(to) && nodeOf(root, from) !== nodeOf(root, to);
    const imports = [];
    const collect = (node) => {
      if (node.source?.type !== "Literal" || typeof node.source.value !== "string") return;
      const target = resolveSpecifier(projectRoot, context.physicalFilename, node.source.value);
      if (target?.startsWith(`${root}/`) && counts(file, target)) imports.push({ node, target });
    };
    return {
      ImportDeclaration: collect,
      ExportNamedDeclaration: collect,
      ExportAllDeclaration: collect,
      ImportExpression: collect,
      "Program:exit"() {
        if (imports.length === 0) return;
        // The folder graph of the other files (from disk) and this one (from its source).
        const edges = new Map();
        const addEdge = (from, to) => {
          const a = nodeOf(root, from);
          const b = nodeOf(root, to);
          if (!edges.has(a)) edges.set(a, new Map());
          if (!edges.get(a).has(b)) edges.get(a).set(b, `${from} imports ${to}`);
        };
        for (const [other, { targets }] of diskImports(projectRoot, root)) {
          if (other === file) continue;
          for (const target of targets) if (target.startsWith(`${root}/`) && counts(other, target)) addEdge(other, target);
        }
        for (const { target } of imports) addEdge(file, target);
        const here = nodeOf(root, file);
        for (const { node, target } of imports) {
          const there = nodeOf(root, target);
          const back = findPath(edges, there, here);
          if (!back) continue;
          context.report({
            node,
            messageId: "cycle",
            data: {
              cycle: [here, ...back.map((step) => step.node), here].join(" → "),
              from: here,
              to: there,
              back: back.map((step) => step.witness).join(", "),
            },
          });
        }
      },
    };
  },
};

export default { meta: { name: "local" }, rules: { "folder-cycles": folderCycles } };
