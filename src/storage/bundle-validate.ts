/**
 * The parts of a run bundle that reach files, prompts and exports, checked whole at import
 * (issue #28 item 1) — a bundle is someone else's file. A skill package's name is one folder
 * name, its frontmatter one `---` block, its assets normalised paths inside the package that no
 * two files share; every skill text's file sections name reference files inside the package; the
 * skill's name and description, the trigger queries and every dataset item have the shapes the
 * engine and the exports read (an item's agent fields and the dataset's tools read by the Data
 * screen's own readers), and the splits name only the dataset's items.
 * Each problem is named by its path in the bundle (e.g. `run.skillPackage.assets.0.path`).
 */
import { z } from 'zod';
import { SPLITS } from '../core/dataset/dataset-types';
import { isPackagePath, pathClashes, sectionPathProblems } from '../core/skill/package-paths';
import { isTrainedPath } from '../core/skill/skill-package';
import { readStoredAgentSpec } from '../core/agent/agent-item';
import { readToolSpecs } from '../core/agent/tool-spec';

const FRONTMATTER = /^---\n[\s\S]*?\n---[ \t]*(?:\n|$)/;

/** A whole frontmatter block and nothing after it, or none. */
const isFrontmatter = (f: string) => f === '' || FRONTMATTER.exec(f)?.[0] === f;

const assetSchema = z.object({
  path: z
    .string()
    .refine(isPackagePath, 'must be a normalised path inside the package (no "..", "/" at the start, or empty part)')
    .refine((p) => !isTrainedPath(p), 'is a trained reference file, not an asset'),
  data: z.string(),
});

export const packageShellSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .refine((n) => isPackagePath(n) && !n.includes('/'), 'must be one folder name'),
  frontmatter: z
    .string()
    .max(64 * 1024)
    .refine(isFrontmatter, 'must be empty or one "---" block and nothing else'),
  assets: z.array(assetSchema).superRefine((assets, ctx) => {
    const clashes = pathClashes(assets.map((a) => a.path));
    if (clashes.length) ctx.addIssue({ code: 'custom', message: clashes.slice(0, 3).join('; ') });
  }),
  assetsLeftOut: z.number().int().min(0).optional(),
  files: z
    .array(z.string().refine((p) => isPackagePath(p) && isTrainedPath(p), 'must be a reference path (references/….md)'))
    .superRefine((files, ctx) => {
      const clashes = pathClashes(files);
      if (clashes.length) ctx.addIssue({ code: 'custom', message: clashes.slice(0, 3).join('; ') });
    })
    .optional(),
});

/** A skill text that enters a run (issue #39 H4): its file sections name reference files inside the package only. */
export const skillTextSchema = z.string().superRefine((text, ctx) => {
  for (const message of sectionPathProblems(text).slice(0, 3)) ctx.addIssue({ code: 'custom', message });
});

export const skillMetaSchema = z.object({
  name: z
    .string()
    .max(256)
    .refine((n) => !/[\n\r]/.test(n), 'must be one line'),
  description: z.string().max(8 * 1024),
});

export const triggerQueriesSchema = z
  .array(z.object({ id: z.string().min(1).max(200), query: z.string().min(1), shouldTrigger: z.boolean() }))
  .superRefine((qs, ctx) => {
    const seen = new Set<string>();
    qs.forEach((q, i) => {
      if (seen.has(q.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `"${q.id}" is used twice` });
      seen.add(q.id);
    });
  });

const itemSchema = z.looseObject({
  id: z.string().min(1),
  question: z.string(),
  answers: z.array(z.string()),
  context: z.string().optional(),
  choices: z.array(z.looseObject({ label: z.string(), text: z.string() })).optional(),
  correctChoice: z.string().optional(),
  split: z.enum(SPLITS).optional(),
  taskType: z.string().optional(),
  rubric: z.string().optional(),
  fields: z.record(z.string(), z.unknown()),
  // An agent's fields (issue #39 M5), read by the Data screen's own reader: the engine gets its result.
  agent: z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const r = readStoredAgentSpec(v);
      for (const message of r.problems.slice(0, 3)) ctx.addIssue({ code: 'custom', message });
      return r.spec;
    }),
});

/** A dataset's tools for every item, read as a dataset file's are. */
const toolsSchema = z.unknown().transform((v, ctx) => {
  const r = readToolSpecs(v);
  for (const message of r.problems.slice(0, 3)) ctx.addIssue({ code: 'custom', message });
  return r.tools;
});

export const datasetSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    items: z.array(itemSchema),
    tools: toolsSchema.optional(),
    splits: z.looseObject({ train: z.array(z.string()), val: z.array(z.string()), test: z.array(z.string()) }),
  })
  .superRefine((d, ctx) => {
    const ids = new Set<string>();
    d.items.forEach((item, i) => {
      if (ids.has(item.id))
        ctx.addIssue({ code: 'custom', path: ['items', i, 'id'], message: `"${item.id}" is used twice` });
      ids.add(item.id);
    });
    const placed = new Set<string>();
    for (const split of SPLITS)
      d.splits[split].forEach((id, i) => {
        const bad = !ids.has(id) ? `"${id}" is no item of the dataset` : placed.has(id) ? `"${id}" is split twice` : '';
        if (bad) ctx.addIssue({ code: 'custom', path: ['splits', split, i], message: bad });
        placed.add(id);
      });
  });
