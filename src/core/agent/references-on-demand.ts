/**
 * A skill package read the way agent harnesses read it (issue #30, `referencesOnDemand`): the
 * agent's prompt holds SKILL.md and the list of the package's other files, and a `read_file`
 * tool returns a file when the agent asks for it — the references of the skill version being
 * rolled out, so what the optimizer edits in them is what the agent reads.
 */
import { SKILL_ENTRY, normalisePackagePath, splitBundle, type PackageFile } from '../skill/skill-package';
import type { ToolSpec } from './tool-spec';

export const READ_FILE = 'read_file';

export const READ_FILE_TOOL: ToolSpec = {
  name: READ_FILE,
  description: "Read a file of this skill's package by its path, e.g. references/guide.md.",
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'The path inside the skill package.' } },
    required: ['path'],
  },
};

export interface OnDemandSkill {
  /** What the agent's prompt holds: SKILL.md and the list of files it may read. */
  promptSkill: string;
  /** Readable files by path (SKILL.md included). */
  files: ReadonlyMap<string, string>;
}

/** The skill as the agent sees it on demand; null when the package has no file to read. */
export function onDemandSkill(bundle: string, keptFiles: readonly PackageFile[] = []): OnDemandSkill | null {
  const { main, files } = splitBundle(bundle);
  const all = [...files, ...keptFiles.filter((k) => !files.some((f) => f.path === k.path))];
  if (!all.length) return null;
  const list = all.map((f) => `- ${f.path}`).join('\n');
  return {
    promptSkill: `${main.trimEnd()}\n\n## Files of this skill\nRead one with the ${READ_FILE} tool when you need it:\n${list}\n`,
    files: new Map([[SKILL_ENTRY, main], ...all.map((f): [string, string] => [f.path, f.text])]),
  };
}

/** The answer of a `read_file` call: the file, or an error that lists what can be read. */
export function readSkillFile(view: OnDemandSkill, args: Record<string, unknown>): { result: string; error?: true } {
  const raw = typeof args.path === 'string' ? args.path : typeof args.file === 'string' ? args.file : '';
  if (!raw.trim()) return { result: 'Error: read_file needs a "path".', error: true };
  const text = view.files.get(normalisePackagePath(raw));
  if (text !== undefined) return { result: text };
  return {
    result: `Error: no file "${raw}" in this skill; its files: ${[...view.files.keys()].join(', ')}`,
    error: true,
  };
}
