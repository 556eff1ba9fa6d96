/**
 * Deterministic scorers (DESIGN §3.2, algorithm doc §5.2). Each returns hard ∈ [0,1] and
 * soft ∈ [0,1]; a failed row carries a fail reason that says what was expected and what came
 * back, in the form "<LABEL>=<value>: predicted '…' but expected …" — the text before the first
 * colon is what the step buffer groups failures by. The LLM judge lives in the engine.
 */
import { stripThinking } from '../basics/thinking';
import { extractAnswer } from './answer-extraction';
import { levenshtein, pyList, pyRepr, squadNormalise, tokenF1 } from './text-normalise';

export interface Choice {
  label: string;
  text: string;
}

export type ScorerSpec =
  | { kind: 'exact' }
  | { kind: 'mcq' }
  | { kind: 'contains' }
  | { kind: 'numeric'; relTol?: number; absTol?: number }
  | { kind: 'regex'; flags?: string }
  | { kind: 'anls'; threshold?: number }
  | { kind: 'judge'; rubric?: string };

export type ScorerKind = ScorerSpec['kind'];
export const SCORER_KINDS: readonly ScorerKind[] = ['exact', 'mcq', 'contains', 'numeric', 'regex', 'anls', 'judge'];

/** What a scorer needs to know about the item. */
export interface ScoreTarget {
  answers: readonly string[];
  choices?: readonly Choice[];
  correctChoice?: string;
}

export interface ScoreResult {
  hard: number;
  soft: number;
  predicted: string;
  failReason?: string;
  /** Scorer-specific measures (em, f1, sub_em, anls, …) kept for inspection. */
  extras?: Record<string, number | string>;
}

/** Score a response. Throws only for `judge`, which needs an LLM and is scored by the engine. */
export function scoreResponse(spec: ScorerSpec, reply: string, target: ScoreTarget): ScoreResult {
  const response = stripThinking(reply); // scored on what follows the model's thinking
  switch (spec.kind) {
    case 'exact':
      return scoreExact(response, target.answers);
    case 'mcq':
      return scoreMcq(response, target);
    case 'contains':
      return scoreContains(response, target.answers);
    case 'numeric':
      return scoreNumeric(response, target.answers, spec.relTol ?? 1e-4, spec.absTol ?? 1e-9);
    case 'regex':
      return scoreRegex(response, target.answers, spec.flags ?? '');
    case 'anls':
      return scoreAnls(response, target.answers, spec.threshold ?? 0.5);
    case 'judge':
      throw new Error('The judge scorer needs an LLM call; the engine scores it.');
  }
}

function fail(label: string, predicted: string, expected: string): string {
  return `${label}: predicted ${pyRepr(predicted)} but expected ${expected}`;
}

/** Exact match after SQuAD normalisation (hard) and multiset token F1 (soft). */
export function scoreExact(response: string, answers: readonly string[]): ScoreResult {
  const predicted = extractAnswer(response);
  const p = squadNormalise(predicted);
  const golds = answers.map(squadNormalise);
  const em = golds.some((g) => g === p) ? 1 : 0;
  const nonEmpty = golds.filter((g) => g.length > 0);
  let f1: number;
  if (!p) f1 = golds.some((g) => !g) ? 1 : 0;
  else f1 = nonEmpty.reduce((best, g) => Math.max(best, tokenF1(p, g)), 0);
  const subEm = golds.some((g) => g.length > 0 && p.length > 0 && (p.includes(g) || g.includes(p))) ? 1 : 0;
  return {
    hard: em,
    soft: f1,
    predicted,
    extras: { em, f1, sub_em: subEm },
    ...(em ? {} : { failReason: fail('EM=0', predicted, pyList(answers)) }),
  };
}

/** Upper-case, trim, drop a trailing '.', ')' or ':'. */
export function normaliseLabel(x: string): string {
  return x
    .trim()
    .toUpperCase()
    .replace(/[.):]+$/, '')
    .trim();
}

/** The label a response chose among the choices (algorithm doc §5.2, MCQ). */
export function parseChoiceLabel(answer: string, choices: readonly Choice[]): string {
  const labels = choices.length ? choices.map((c) => normaliseLabel(c.label)) : null;
  const isLabel = (x: string) => (labels ? labels.includes(x) : /^[A-Z]$/.test(x));
  const asLabel = normaliseLabel(answer);
  if (asLabel && isLabel(asLabel)) return asLabel;
  // An empty answer chooses nothing, even when a choice's text is empty (issue #20 item 23).
  const text = answer.trim().toLowerCase();
  const byText = text ? choices.find((c) => c.text.trim().toLowerCase() === text) : undefined;
  if (byText) return normaliseLabel(byText.label);
  const first = normaliseLabel(answer.trim().split(/\s+/)[0] ?? '');
  if (first && isLabel(first)) return first;
  return asLabel;
}

export function scoreMcq(response: string, target: ScoreTarget): ScoreResult {
  const predicted = extractAnswer(response);
  const choices = target.choices ?? [];
  const label = parseChoiceLabel(predicted, choices);
  const expected = normaliseLabel(target.correctChoice ?? target.answers[0] ?? '');
  const ok = label !== '' && label === expected ? 1 : 0;
  return {
    hard: ok,
    soft: ok,
    predicted: label,
    extras: { predicted_label: label, correct_label: expected },
    ...(ok ? {} : { failReason: `MCQ=0: predicted ${pyRepr(label)} but expected ${pyRepr(expected)}` }),
  };
}

/** Any expected answer appears (normalised) anywhere in the response. */
export function scoreContains(response: string, answers: readonly string[]): ScoreResult {
  const whole = squadNormalise(response);
  const ok = answers.some((a) => {
    const g = squadNormalise(a);
    return g.length > 0 && ` ${whole} `.includes(` ${g} `);
  })
    ? 1
    : 0;
  const predicted = extractAnswer(response);
  return {
    hard: ok,
    soft: ok,
    predicted,
    ...(ok ? {} : { failReason: fail('CONTAINS=0', predicted, pyList(answers)) }),
  };
}

/** The first number in a text, tolerant of thousands separators, currency and percent signs. */
export function parseNumber(text: string): number | null {
  const m = text.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/[-−+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/);
  if (!m) return null;
  const n = Number(m[0].replace('−', '-'));
  return Number.isFinite(n) ? n : null;
}

export function scoreNumeric(
  response: string,
  answers: readonly string[],
  relTol: number,
  absTol: number,
): ScoreResult {
  const predicted = extractAnswer(response);
  const p = parseNumber(predicted);
  const golds = answers.map(parseNumber).filter((g): g is number => g !== null);
  let best = 0;
  let hard = 0;
  if (p !== null) {
    for (const g of golds) {
      const diff = Math.abs(p - g);
      if (diff <= Math.max(absTol, relTol * Math.abs(g))) hard = 1;
      best = Math.max(best, 1 - Math.min(1, diff / Math.max(Math.abs(g), absTol, 1e-12)));
    }
  }
  const soft = hard ? 1 : best;
  const tol = `(tolerance ${relTol} relative, ${absTol} absolute)`;
  return {
    hard,
    soft,
    predicted,
    ...(hard
      ? {}
      : { failReason: fail(p === null ? 'NUMERIC=0 no number' : 'NUMERIC=0', predicted, `${pyList(answers)} ${tol}`) }),
  };
}

export function scoreRegex(response: string, patterns: readonly string[], flags: string): ScoreResult {
  const predicted = extractAnswer(response);
  const bad: string[] = [];
  const ok = patterns.some((p) => {
    try {
      return new RegExp(p, flags.replace(/[gy]/g, '')).test(predicted);
    } catch {
      bad.push(p);
      return false;
    }
  })
    ? 1
    : 0;
  if (ok) return { hard: 1, soft: 1, predicted };
  const reason = bad.length
    ? `REGEX=0 invalid pattern: ${pyList(bad)} could not be compiled`
    : fail('REGEX=0', predicted, `a match for ${pyList(patterns)}`);
  return { hard: 0, soft: 0, predicted, failReason: reason };
}

/** Average normalised Levenshtein similarity (DocVQA ANLS). */
export function anls(prediction: string, golds: readonly string[], threshold = 0.5): number {
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  const p = norm(prediction);
  let best = 0;
  for (const gold of golds) {
    const g = norm(gold);
    let score: number;
    if (!p && !g) score = 1;
    else if (!p || !g) score = 0;
    else {
      const d = levenshtein(p, g) / Math.max(p.length, g.length);
      score = d < threshold ? 1 - d : 0;
    }
    best = Math.max(best, score);
  }
  return best;
}

export function scoreAnls(response: string, answers: readonly string[], threshold: number): ScoreResult {
  const predicted = extractAnswer(response);
  const soft = anls(predicted, answers, threshold);
  const hard = soft >= 0.999 ? 1 : 0;
  return {
    hard,
    soft,
    predicted,
    extras: { anls: soft },
    ...(hard ? {} : { failReason: fail('ANLS<1', predicted, `${pyList(answers)} (ANLS ${soft.toFixed(2)})`) }),
  };
}
