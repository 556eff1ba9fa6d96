/**
 * A run as one self-contained HTML file (issue #11): the chart, the accepted edits, the gate's
 * per-item changes, the test report and lift, the cost, and the best skill. No script and no
 * external resource: it opens anywhere, and every text from the run is escaped.
 */
import { liftIsNoisy, shownLift } from '../verdict/lift';
import { settingsSummary } from '../config/knobs';
import { DEFAULT_RUN_CONFIG } from '../config/run-config';
import { callStageLabel } from '../config/stages';
import { escapeHtml, isNum } from './html';
import { curveSection } from './learning-curve-html';
import { transferSection } from './transfer-html';
import { targetValidationSection, type TargetValidationRow } from './target-validation';
import { creditSection } from './credit-html';
import { testGain } from './test-lift';
import type { CurvePoint } from './learning-curve';
import type { LiftInterval } from '../verdict/lift';
import type { ReportTrajectory } from '../agent/report-trajectories';

export interface ReportStep {
  step: number;
  epoch: number;
  action: string;
  candidate: number | null;
  current: number;
  best: number;
}

export interface ReportGate {
  step: number;
  action: string;
  candidate: number | null;
  current: number;
  fixed: string[];
  broken: string[];
  edits: { op: string; target?: string; content?: string }[];
  /** The item-by-item verdict's statistics (issue #19): sign test, items asked again, the votes needed. */
  verdict?: { pValue: number; resampled: number; margin: number };
  /** The other target that refused a candidate the trained target accepted (issue #42 item 5). */
  refusedBy?: string;
}

/** A lift with its interval (issue #19), as the run summary holds it. */
export interface ReportLift extends Omit<LiftInterval, 'n'> {
  against: string;
  noise: { miss: number; guess: number; flipRate: number; repeatedSamples: number };
}

export interface ReportData {
  name: string;
  status: string;
  /** When the run was made, as text (core reads no clock). */
  createdAt: string;
  datasetName: string;
  targetModel: string;
  optimizerModel: string;
  /** The run's settings (a stored config; a crafted bundle's may hold anything). */
  config: object;
  baseline: number | null;
  steps: ReportStep[];
  gates: ReportGate[];
  /** Each skill on test; with several tries per item, its pass^k beside pass^1 (core/verdict/pass-k.ts). */
  tests: {
    skill: string;
    hard: number;
    soft: number;
    n: number;
    passK?: { k: number; passAt1: number; passAtK: number; flipRate: number };
  }[];
  usage: Record<string, { calls: number; promptTokens: number; completionTokens: number; costUsd?: number }>;
  totalCostUsd: number | null;
  bestSkill: string;
  diagnosis?: { headline: string };
  lift?: ReportLift;
  liftOverNone?: ReportLift;
  /** The lift under each target that confirmed the run's skills (core/report/transfer-lifts.ts reads it). */
  transfer?: unknown;
  /** The starting and best skills' validation under each target that gated (core/report/target-validation.ts). */
  gateTargets?: TargetValidationRow[] | null;
  /** Section credit of the best skill (issue #43 item 4; core/report/section-credit-read.ts reads it). */
  sectionCredit?: unknown;
  /** Edit blame of the best skill: where each run of lines came from (service/skill-blame.ts). */
  blame?: { start: number; end: number; source: string; detail: string }[];
  /** The activation track: the description it started from and kept, and how often each decided right. */
  activation?: {
    initialDescription: string;
    description: string;
    baselineScore: number;
    score: number;
    epochs: { epoch: number; action: string; valCurrent?: number; valCandidate?: number }[];
    test?: { initial: number; best: number; n: number };
  };
  /** The learning curve (core/report/learning-curve.ts): absent for a run made before it was recorded. */
  curve?: CurvePoint[];
  /** An agent's run (issue #30): turns per rollout at the baseline, and trajectories of the exported skill. */
  agents?: { turns: number | null; trajectories: ReportTrajectory[] };
}

export { escapeHtml };

// Numbers are rendered only when they are numbers: an imported bundle may hold anything in their
// place, and none of it may reach the HTML unescaped (issue #20 item 12).
const int = (v: unknown) => (isNum(v) ? String(v) : '—');
const num = (x: unknown, digits: number) => (isNum(x) ? x.toFixed(digits) : '—');
const pct = (v: unknown) => (isNum(v) ? `${(v * 100).toFixed(1)}%` : '—');
const TEST_LABELS: Record<string, string> = {
  none: 'No skill',
  initial: 'Starting skill',
  best: 'Best skill (exported)',
  final: 'Final skill',
};

function chart(steps: readonly ReportStep[], baseline: number | null): string {
  const W = 640;
  const H = 220;
  const pad = { l: 40, r: 12, t: 10, b: 24 };
  const n = Math.max(1, steps.length);
  const x = (s: number) => pad.l + (s / n) * (W - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - Math.min(1, Math.max(0, v))) * (H - pad.t - pad.b);
  const line = (get: (s: ReportStep) => number) => {
    const pts: [number, number][] = [
      ...(baseline !== null ? [[0, baseline] as [number, number]] : []),
      ...steps.map((s) => [s.step, get(s)] as [number, number]),
    ];
    return pts.map(([s, v], i) => `${i ? 'L' : 'M'}${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  };
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${pad.l - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`,
    )
    .join('');
  const marks = steps
    .filter((s) => s.candidate !== null)
    .map((s) =>
      s.action.includes('accept')
        ? `<circle cx="${x(s.step)}" cy="${y(s.candidate!)}" r="4" class="accept"><title>Step ${int(s.step)}: accepted at ${num(s.candidate, 3)}</title></circle>`
        : `<path d="M${x(s.step) - 4},${y(s.candidate!) - 4}l8,8m-8,0l8,-8" class="reject"><title>Step ${int(s.step)}: rejected at ${num(s.candidate, 3)}</title></path>`,
    )
    .join('');
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Validation score by step">${grid}<path d="${line((s) => s.best)}" class="best"/><path d="${line((s) => s.current)}" class="current"/>${marks}</svg>
<p class="legend"><span class="k current">current</span> <span class="k best">best</span> ● accepted × rejected</p>`;
}

function table(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

/** Each skill on test; pass^1, pass^k and the flip rate beside the accuracy when the test tried items more than once. */
function testTable(tests: ReportData['tests']): string {
  const k = tests.find((t) => isNum(t.passK?.k))?.passK?.k;
  const label = (t: ReportData['tests'][number]) => escapeHtml(TEST_LABELS[t.skill] ?? t.skill);
  if (k === undefined)
    return table(
      ['Skill', 'Test accuracy', 'Partial credit', 'Items'],
      tests.map((t) => [label(t), pct(t.hard), pct(t.soft), int(t.n)]),
    );
  return (
    table(
      ['Skill', 'Test accuracy', 'pass^1', `pass^${int(k)}`, 'Items flipped', 'Partial credit', 'Items'],
      tests.map((t) => [
        label(t),
        pct(t.hard),
        pct(t.passK?.passAt1),
        pct(t.passK?.passAtK),
        pct(t.passK?.flipRate),
        pct(t.soft),
        int(t.n),
      ]),
    ) +
    `<p class="meta">Each test item was tried ${int(k)} times with each skill. pass^${int(k)}: the chance that all ${int(k)} tries of an item pass (estimated from them without bias), beside pass^1 over the same tries; items flipped: the share of items whose tries disagree. Errored tries are not counted.</p>`
  );
}

const points = (x: unknown) => (isNum(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} points` : '—');

/** A lift in a sentence: the figure with the target's noise taken out, its interval, and whether it can be told from noise. */
function liftLine(l: ReportLift, over: string): string {
  const noisy = liftIsNoisy(l.noise);
  return `<li>Over ${escapeHtml(over)}: <strong>${points(shownLift(l))}</strong>, ${Math.round(l.level * 100)}% interval ${points(l.interval[0])} to ${points(l.interval[1])} — ${
    l.uncertain ? '<strong>cannot be told from noise</strong>' : l.interval[0] > 0 ? 'a real gain' : 'a real loss'
  }${noisy ? ` (measured ${points(l.measured)}; the target missed about ${num(l.noise.miss * 100, 0)}% of answers it knew and guessed about ${num(l.noise.guess * 100, 0)}% of the others, from ${int(l.noise.repeatedSamples)} repeated answers)` : ''}.</li>`;
}

const ids = (xs: readonly string[]) =>
  xs.length ? escapeHtml(xs.slice(0, 12).join(', ') + (xs.length > 12 ? ` … (${xs.length})` : '')) : '—';

/** The activation track's part of the report: both descriptions and their shares decided right. */
function activationSection(a: ReportData['activation']): string {
  if (!a) return '';
  const rows = [
    ['Starting', escapeHtml(a.initialDescription), pct(a.baselineScore), a.test ? pct(a.test.initial) : '—'],
    ['Kept (exported)', escapeHtml(a.description), pct(a.score), a.test ? pct(a.test.best) : '—'],
  ];
  const epochs = a.epochs
    .map((e) => {
      const v = isNum(e.valCandidate) ? ` (validation ${pct(e.valCurrent)} → ${pct(e.valCandidate)})` : '';
      return `epoch ${int(e.epoch)}: ${escapeHtml(String(e.action).replace(/_/g, ' '))}${v}`;
    })
    .join(' · ');
  return `<h2>Activation track: the description</h2>
${table(['Description', 'Text', 'Validation queries right', 'Test queries right'], rows)}
<p>${epochs}</p>
`;
}

/** An agent's run: how many turns its rollouts took, and what the exported skill's agent did, turn by turn. */
function agentsSection(a: ReportData['agents']): string {
  if (!a) return '';
  const list = Array.isArray(a.trajectories) ? a.trajectories : [];
  const items = list
    .map(
      (t) =>
        `<details><summary><code>${escapeHtml(String(t.itemId))}</code> — ${t.passed ? 'passed' : 'failed'} in ${int(t.turns)} turn(s)${
          t.failReason ? `: ${escapeHtml(String(t.failReason))}` : ''
        }</summary><pre>${escapeHtml((Array.isArray(t.lines) ? t.lines : []).map(String).join('\n'))}</pre></details>`,
    )
    .join('\n');
  return `<h2>Agents: trajectories</h2>
<p>${isNum(a.turns) ? `At the baseline the agent took ${num(a.turns, 1)} turns per item (each a target call). ` : ''}The exported skill on held-out items, turn by turn: its failures first.</p>
${items || '<p>No trajectory was kept.</p>'}
`;
}

export function renderRunReport(d: ReportData): string {
  const bestLines = d.bestSkill.replace(/\n$/, '').split('\n');
  const accepted = d.gates.filter((g) => g.action.includes('accept'));
  const usageRows = Object.entries(d.usage).map(([stage, u]) => [
    escapeHtml(callStageLabel(stage)),
    int(u.calls),
    isNum(u.promptTokens) && isNum(u.completionTokens)
      ? (u.promptTokens + u.completionTokens).toLocaleString('en-US')
      : '—',
    isNum(u.costUsd) ? `$${u.costUsd.toFixed(4)}` : '—',
  ]);
  const testOf = (s: string) => d.tests.find((t) => t.skill === s);
  const intervals =
    d.lift || d.liftOverNone
      ? `<ul>${d.lift ? liftLine(d.lift, 'the starting skill') : ''}${d.liftOverNone ? liftLine(d.liftOverNone, 'no skill') : ''}</ul><p class="meta">Intervals cover which test items were drawn and how the target's answers vary.</p>`
      : '';
  const overInitial = testGain(d.tests, 'best', 'initial');
  const overNone = testGain(d.tests, 'best', 'none');
  const lift =
    intervals ||
    (overInitial !== null
      ? `<p>Best vs starting skill: <strong>${num(overInitial * 100, 1)} points</strong>${overNone !== null ? `; vs no skill: <strong>${num(overNone * 100, 1)} points</strong>` : ''} on ${int(testOf('best')!.n)} held-out test items.</p>`
      : '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'">
<title>${escapeHtml(d.name)} — Skillwright run report</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d232b;background:#fff}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:2rem 0 .5rem;border-bottom:1px solid #dde2e8;padding-bottom:.25rem}
.meta{color:#5f6b7a}table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eef1f4;vertical-align:top}
svg{width:100%;height:auto}svg text{font-size:10px;fill:#5f6b7a}.grid{stroke:#e5e8ec}.current{stroke:#3b5bdb;fill:none;stroke-width:2}.best{stroke:#2b8a3e;fill:none;stroke-dasharray:5 3}
.band{fill:#3b5bdb;fill-opacity:.15}.whisker{stroke:#3b5bdb;stroke-opacity:.7;stroke-width:1.5}.kept circle{fill:#2b8a3e}.refused circle{fill:#fff;stroke:#c92a2a;stroke-width:2}.tick{stroke:#5f6b7a;stroke-width:2}.k.band{color:#3b5bdb}
.curve-scroll{overflow-x:auto}svg.curve{min-width:520px;max-width:640px;display:block}svg.curve text{font-size:12px}
.passk{stroke:#d9480f;fill:none;stroke-width:1.5}.passk-mark{fill:#d9480f}.k.passk{color:#d9480f}
.flip{color:#c92a2a}.accept{fill:#2b8a3e}.reject{stroke:#c92a2a;stroke-width:2}.legend{font-size:.85rem;color:#5f6b7a}.k.current{color:#3b5bdb}.k.best{color:#2b8a3e}
pre{white-space:pre-wrap;background:#f6f8fa;border:1px solid #dde2e8;padding:.75rem;border-radius:6px;font-size:.85rem}code{font-size:.85rem}
@media (prefers-color-scheme:dark){body{background:#15191e;color:#e3e7eb}.passk{stroke:#ff922b}.passk-mark{fill:#ff922b}.k.passk{color:#ff922b}.flip{color:#ff8787}.refused circle{fill:#15191e}pre{background:#1d232b;border-color:#2c343d}th,td{border-color:#2c343d}}
</style></head><body>
<h1>${escapeHtml(d.name)}</h1>
<p class="meta">${escapeHtml(d.status)} · dataset ${escapeHtml(d.datasetName)} · target ${escapeHtml(d.targetModel)} · optimizer ${escapeHtml(d.optimizerModel)} · ${escapeHtml(d.createdAt)}</p>
<p class="meta">${escapeHtml(settingsSummary(d.config, DEFAULT_RUN_CONFIG).join(' · '))} · baseline ${pct(d.baseline)} · best ${pct(d.steps.length ? Math.max(...d.steps.map((s) => s.best)) : d.baseline)}${isNum(d.totalCostUsd) ? ` · cost $${d.totalCostUsd.toFixed(4)}` : ''}</p>
${d.diagnosis ? `<p><strong>${escapeHtml(d.diagnosis.headline)}</strong></p>` : ''}
<h2>Validation score</h2>
${chart(d.steps, d.baseline)}
${curveSection(d.curve)}<h2>Accepted edits</h2>
${
  accepted.length
    ? accepted
        .map(
          (g) =>
            `<h3>Step ${int(g.step)} (${escapeHtml(String(g.action).replace(/_/g, ' '))}, ${num(g.candidate, 3)} vs ${num(g.current, 3)})</h3>${table(
              ['Op', 'Target', 'Content'],
              g.edits.map((e) => [
                escapeHtml(e.op),
                e.target ? `<code>${escapeHtml(e.target)}</code>` : '',
                escapeHtml(e.content ?? ''),
              ]),
            )}`,
        )
        .join('')
    : '<p>No step was accepted.</p>'
}
<h2>Gate: per-item changes</h2>
${table(
  ['Step', 'Decision', 'Candidate', 'Current', 'Fixed items', 'Broken items', 'Sign test', 'Asked again'],
  d.gates.map((g) => [
    int(g.step),
    escapeHtml(`${String(g.action).replace(/_/g, ' ')}${g.refusedBy ? `, refused by the target ${g.refusedBy}` : ''}`),
    num(g.candidate, 3),
    num(g.current, 3),
    ids(g.fixed),
    ids(g.broken),
    g.verdict ? `p = ${num(g.verdict.pValue, 3)}` : '—',
    g.verdict ? `${num(g.verdict.resampled, 0)} item(s), ${num(g.verdict.margin, 0)}-vote margin` : '—',
  ]),
)}
<h2>Test report</h2>
${d.tests.length ? testTable(d.tests) + lift : '<p>The test split was not scored.</p>'}
${targetValidationSection(d.gateTargets ?? null)}${transferSection(d.transfer)}${creditSection(d.sectionCredit)}${activationSection(d.activation)}${agentsSection(d.agents)}<h2>Cost by stage</h2>
${usageRows.length ? table(['Stage', 'Calls', 'Tokens', 'Cost'], usageRows) : '<p>No usage recorded.</p>'}
<h2>Best skill</h2>
<pre>${escapeHtml(d.bestSkill)}</pre>
${
  d.blame?.length
    ? `<h2>Where each line of the best skill came from</h2>\n${table(
        ['Lines', 'Source', 'Text', 'Why'],
        d.blame.map((b) => [
          b.start === b.end ? int(b.start) : `${int(b.start)}–${int(b.end)}`,
          escapeHtml(b.source),
          `<code>${escapeHtml(bestLines.slice(b.start - 1, b.end).join('\n'))}</code>`,
          escapeHtml(b.detail),
        ]),
      )}`
    : ''
}
<p class="meta">Made with Skillwright.</p>
</body></html>
`;
}
