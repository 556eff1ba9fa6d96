/**
 * How stochastic the target is, measured from the run itself (issue #19). A sampled or reasoning
 * model answers the same item differently from one call to the next; the engine asks some items
 * again (a probe at the baseline, and the items a verdict hinges on) and tallies how often the
 * answers of one skill on one item disagree. From the tally: a flip rate (the share of answers
 * that are the minority of their item's answers), a cautious upper bound of it, and how many
 * more votes one answer needs over the other before an item's outcome counts as settled.
 */

/** Repeated samples of one skill on one item, summed over such units. */
export interface FlipTally {
  /** Units (skill × item) with two or more samples. */
  units: number;
  /** Samples in those units. */
  samples: number;
  /** Samples on the minority side of their unit (a 2–1 split counts 1). */
  minority: number;
}

/** The repeated samples of one skill on one item: how many, how many passed, and whether the first did. */
export interface RepeatUnit {
  samples: number;
  passes: number;
  first: boolean;
}

export const NO_FLIPS: FlipTally = { units: 0, samples: 0, minority: 0 };

/** Add one unit's pass/fail samples (a unit of one sample says nothing about flips). */
export function addUnit(t: FlipTally, passes: readonly boolean[]): FlipTally {
  if (passes.length < 2) return t;
  const p = passes.filter(Boolean).length;
  return {
    units: t.units + 1,
    samples: t.samples + passes.length,
    minority: t.minority + Math.min(p, passes.length - p),
  };
}

export function addTallies(a: FlipTally, b: FlipTally): FlipTally {
  return { units: a.units + b.units, samples: a.samples + b.samples, minority: a.minority + b.minority };
}

/** The point estimate: the share of samples that disagree with their item's majority. */
export function flipRate(t: FlipTally): number {
  return t.samples ? t.minority / t.samples : 0;
}

/** z of a one-sided 90 % bound. */
const Z90 = 1.2816;

/**
 * A cautious (90 % one-sided, Wilson) upper bound of the flip rate. With no evidence it is ½ —
 * anything may be noise — and it shrinks as agreeing repeats accumulate (16 samples that all agree
 * bound it near 0.09; 32 near 0.05, where a single answer starts to count as settled).
 */
export function flipRateUpper(t: FlipTally, z = Z90): number {
  const n = t.samples;
  if (n === 0) return 0.5;
  const p = t.minority / n;
  const z2 = z * z;
  const upper = (p + z2 / (2 * n) + z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return Math.min(0.5, upper);
}

/** The confidence an item's outcome must reach to count as settled (posterior odds 19 : 1). */
export const SETTLE_CONFIDENCE = 0.95;

/**
 * Votes one answer needs over the other for an item's outcome to be settled when each answer flips
 * with probability `eps`: each vote multiplies the odds by (1 − eps) / eps. 1 means a single
 * answer is enough (a deterministic target); Infinity when eps is ½ (answers say nothing).
 */
export function settleMargin(eps: number, confidence = SETTLE_CONFIDENCE): number {
  if (!(eps > 0)) return 1;
  if (eps >= 0.5) return Infinity;
  const need = Math.log(confidence / (1 - confidence));
  return Math.max(1, Math.ceil(need / Math.log((1 - eps) / eps) - 1e-9));
}

/** What the verdicts of a step use: the margin, and the most samples of one skill on one item. */
export interface NoisePolicy {
  /** Upper bound of the flip rate the margin was derived from. */
  flipUpper: number;
  /** The flip rate's posterior mean (Jeffreys): what posterior verdicts take the noise to be. */
  flipMean?: number;
  /** The tally both came from: posterior verdicts weigh every flip rate it leaves plausible. */
  flips?: { minority: number; samples: number };
  /** The repeated units themselves, with their answers: posterior verdicts weigh misses and guesses apart. */
  repeats?: readonly RepeatUnit[];
  margin: number;
  /** Most samples per skill and item when settling (1 turns re-sampling off). */
  maxSamples: number;
  /** One answer settles an item but the evidence is still thin: a verdict re-asks one item it hinges on. */
  spotCheck?: boolean;
}

export function noisePolicy(t: FlipTally, maxSamples: number, repeats?: readonly RepeatUnit[]): NoisePolicy {
  const flipUpper = flipRateUpper(t);
  return {
    flipUpper,
    flipMean: (t.minority + 0.5) / (t.samples + 1),
    flips: { minority: t.minority, samples: t.samples },
    ...(repeats ? { repeats } : {}),
    margin: settleMargin(flipUpper),
    maxSamples: Math.max(1, maxSamples),
    spotCheck: t.minority === 0 && t.samples < SPOT_CHECK_UNTIL,
  };
}

/**
 * A target that has never changed an answer is spot-checked until this many repeated samples
 * agree (its flip rate then bounded near 2.5 %): enough to catch a noisy target a lucky probe
 * hid, without paying a round trip per verdict for the rest of a long run.
 */
export const SPOT_CHECK_UNTIL = 64;

/** True when verdicts should re-sample: one answer is not enough to settle an item. */
export function resamples(p: NoisePolicy): boolean {
  return p.maxSamples > 1 && p.margin > 1;
}

/** z of a one-sided 95 % test. */
const Z95 = 1.6449;

/**
 * The smallest gain, in items out of `n`, that one answer per item can tell from the noise of a
 * target that changes a share `flip` of its answers when asked again: two equally good skills
 * disagree by chance on about n·2·flip·(1 − flip) items, split both ways, so a gain must clear
 * 1.645 standard deviations of that difference. One item when the target is deterministic.
 */
export function detectableGainItems(n: number, flip: number): number {
  if (n <= 0) return 0;
  if (!(flip > 0)) return 1;
  const chanceDisagreements = n * 2 * flip * (1 - flip);
  return Math.min(n, Math.max(1, Math.ceil(Z95 * Math.sqrt(chanceDisagreements) - 1e-9)));
}
