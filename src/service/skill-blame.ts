/**
 * Edit blame of a skill text against a run's history (issue #11): which version introduced each
 * line (core/skill/edit-blame.ts), and for lines a step wrote, the edit, the analysts' reasoning, the
 * train items that failed and the validation items it fixed. The text's lineage is the chain of
 * versions the run made current up to the last one equal to it; a text no version equals (edited
 * by hand since) gets its own last link, "edited".
 */
import { blameLines, blameRanges } from '../core/skill/edit-blame';
import { compareOutcomes, isPass } from '../core/verdict/credit';
import type { Edit } from '../core/skill/edits';
import { readStepArtifacts } from '../engine/artifacts';
import type { SkillVersion } from '../engine/types';
import type { RunRecords } from './ports';
import { readStepRecords } from './step-records';
import { INITIAL_ORIGIN, parseOrigin } from '../core/skill/version-origin';

export type BlameKind = 'initial' | 'step' | 'slow_update' | 'appendix' | 'edited';

export interface BlameSource {
  key: string;
  kind: BlameKind;
  label: string;
  step: number | null;
  /** Step sources: the gate's action, what the update said, failing train items, validation items fixed. */
  action?: string;
  reasoning?: string;
  changeSummary?: string[];
  failingItems?: string[];
  fixedItems?: string[];
}

export interface BlameLine {
  line: number;
  key: string;
  /** The edit whose content holds this line (step sources). */
  edit?: { op: string; target: string; content: string; source: string; support: number };
  /** The reasoning of the analysts that proposed this line. */
  analysts?: string[];
}

export interface SkillBlame {
  lines: BlameLine[];
  ranges: { start: number; end: number; key: string }[];
  sources: Record<string, BlameSource>;
}

const stepOf = (origin: string): number | null => {
  const o = parseOrigin(origin);
  return o?.kind === 'step' || o?.kind === 'appendix' ? o.step : null;
};

const kindOf = (origin: string): BlameKind => parseOrigin(origin)?.kind ?? 'edited';

/** The lineage of `text` among the run's versions (oldest first), ending with "edited" when no version equals it. */
export function lineageOf(
  text: string,
  initialSkill: string,
  versions: readonly SkillVersion[],
): { key: string; text: string }[] {
  const chain = [
    { key: INITIAL_ORIGIN, text: initialSkill },
    ...versions.filter((v) => v.origin !== INITIAL_ORIGIN).map((v) => ({ key: v.origin, text: v.text })),
  ];
  let last = -1;
  chain.forEach((v, i) => v.text === text && (last = i));
  return last >= 0 ? chain.slice(0, last + 1) : [...chain, { key: 'edited', text }];
}

const has = (content: unknown, line: string) =>
  typeof content === 'string' && content.split('\n').some((l) => l.trim() === line);

export async function blameSkill(records: RunRecords, runId: string, text: string): Promise<SkillBlame | null> {
  const run = await records.getRun(runId);
  if (!run) return null;
  const versions = await records.getSkillVersions(runId);
  const chain = lineageOf(text, run.initialSkill, versions);
  const keys = blameLines(chain);
  const textLines = text.replace(/\n$/, '').split('\n');
  const sources: Record<string, BlameSource> = {};
  const lines: BlameLine[] = keys.map((key, i) => ({ line: i + 1, key }));
  for (const key of new Set(keys)) {
    const kind = kindOf(key);
    const step = stepOf(key);
    const source: BlameSource = { key, kind, step, label: labelOf(key, kind, step, run.parent?.label) };
    sources[key] = source;
    if (kind !== 'step' || step === null) continue;
    const r = await readStepRecords(records, runId, step, { versions, run });
    if (!r) continue;
    const a = readStepArtifacts(step, r.artifacts);
    const edits: Edit[] = a.candidate_edits ?? a.ranked?.edits ?? [];
    source.action = r.step.action;
    source.reasoning = a.rewrite?.reasoning ?? a.ranked?.reasoning ?? a.merged?.reasoning;
    if (a.rewrite) source.changeSummary = a.rewrite.changeSummary;
    source.failingItems = r.rollouts.filter((x) => x.status === 'ok' && !isPass(x.hard)).map((x) => x.itemId);
    source.fixedItems = compareOutcomes(
      r.currentRollouts.filter((x) => x.status === 'ok'),
      r.gateRollouts.filter((x) => x.status === 'ok'),
    ).improved;
    const analysts = r.calls.filter((c) => c.stage.startsWith('reflect_'));
    for (const l of lines.filter((x) => x.key === key)) {
      const line = textLines[l.line - 1]?.trim() ?? '';
      if (!line) continue;
      const e = edits.find((x) => has(x.content, line));
      if (e)
        l.edit = {
          op: String(e.op),
          target: String(e.target ?? ''),
          content: String(e.content ?? ''),
          source: String(e.source_type ?? 'failure'),
          support: Number(e.support_count ?? 1),
        };
      const why = analysts
        .map((c) => c.parsed as { patch?: { reasoning?: string; edits?: { content?: unknown }[] } } | null)
        .filter((p) => p?.patch?.edits?.some((x) => has(x.content, line)))
        .map((p) => String(p!.patch!.reasoning ?? ''))
        .filter(Boolean);
      if (why.length) l.analysts = [...new Set(why)];
    }
  }
  return { lines, ranges: blameRanges(keys), sources };
}

function labelOf(key: string, kind: BlameKind, step: number | null, parentLabel: string | undefined): string {
  switch (kind) {
    case 'initial':
      return parentLabel ? `Starting skill (branched from ${parentLabel})` : 'Starting skill';
    case 'step':
      return `Step ${step}`;
    case 'slow_update': {
      const epoch = /epoch_(\d+)/.exec(key)?.[1];
      return `Epoch ${Number(epoch)} guidance (slow update)`;
    }
    case 'appendix':
      return `Reminder after step ${step}`;
    default:
      return 'Edited outside training';
  }
}
