/**
 * Usage and cost per stage, and the budget cap: a call that could push spending past the cap
 * is not made, and the run pauses instead (DESIGN §4).
 */
import type { BudgetCap } from '../core/config/run-config';
import type { LlmUsage, Role } from './ports';
import type { MeterSnapshot, StageUsage } from './types';
import { PauseError } from './pause';
import type { Price } from '../core/config/pricing';
import type { Spend } from '../core/report/learning-curve';

export type { Price };
export type Prices = Partial<Record<Role, Price>>;

export function emptyUsage(): StageUsage {
  return { calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0 };
}

export function costOf(usage: LlmUsage, price: Price | undefined): number {
  // Without a price, what an agent CLI reported it cost (issue #42); a price the person gave wins.
  if (!price) return usage.reportedUsd ?? 0;
  // Reasoning tokens are billed as output and are already part of completion tokens; prompt
  // tokens the endpoint served from its cache are billed at the cached-input price (issue #44).
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const input = (usage.promptTokens - cached) * price.input + cached * (price.cachedInput ?? price.input);
  return (input + usage.completionTokens * price.output) / 1e6;
}

/** Cost set aside for a call in flight, so that concurrent calls cannot all pass the cap together. */
export interface Reservation {
  role: Role;
  costUsd: number;
  tokens: number;
  /** Share of the list price it is billed at (a batch line: half). */
  priceFactor: number;
  /** The price it is billed at when not its role's: a confirming target's own (`confirm/<n>`). */
  tag?: string;
}

export class Meter {
  readonly byStage: Record<string, StageUsage> = {};
  private ledger: MeterSnapshot['usage'] = {};
  private completionSeen: Partial<Record<Role, { n: number; tokens: number; max: number }>> = {};
  private reservedUsd = 0;
  private reservedTokens = 0;

  private estimated = 0;
  private cutOff = 0;
  /**
   * Rebuilt from the stored rows after a crash: the turns of a trajectory the crash cut short are
   * only in its checkpoint, and are counted when the trajectory resumes (`addCheckpointed`).
   */
  rebuiltFromRows = false;
  /** Checkpoints whose calls this meter holds: written in this session, or counted on replay. */
  private readonly checkpoints = new Set<string>();

  constructor(
    private readonly prices: Prices,
    private readonly budget: BudgetCap,
    /** Most completion tokens per call, by role, when the endpoint sets a limit. */
    private readonly outputLimits: Partial<Record<Role, number>> = {},
    /** Prices by tag, for calls billed apart from their role (a confirming target's own price, issue #42). */
    private readonly tagPrices: Record<string, Price> = {},
  ) {}

  /** Count a call whose usage was estimated; the first time, the line the run logs about it. */
  noteEstimated(): string | null {
    return ++this.estimated === 1
      ? 'The endpoint reports no token usage: tokens and costs are estimated from characters (about 4 per token).'
      : null;
  }

  /**
   * Count a target answer that ended at a limit (finish_reason "length"); the first time, what the
   * run logs about it (issue #23): a cut answer is scored as it stands, and often wrongly.
   */
  noteCutOff(): string | null {
    return ++this.cutOff === 1
      ? 'The target’s answers are being cut off (finish_reason: length): raise “Target max output tokens” on Connect, ' +
          'or — for a local server — its context size (Test connection checks it); cut answers are scored as they stand.'
      : null;
  }

  /**
   * Record a call made outside a reservation (e.g. usage restored from storage). `priceFactor`:
   * the share of the list price it is billed at — a batch line's half is kept in the ledger, so
   * a re-priced or resumed run bills it the same way.
   */
  add(stage: string, role: Role, usage: LlmUsage, priceFactor = 1, calls = 1, tag?: string): void {
    const cost = costOf(usage, this.priceOf(role, tag)) * priceFactor;
    const key = `${stage}|${role}${priceFactor === 1 ? '' : `|x${priceFactor}`}${tag ? `|@${tag}` : ''}`;
    const entry = (this.ledger[key] ??= {
      ...emptyUsage(),
      stage,
      role,
      ...(priceFactor === 1 ? {} : { priceFactor }),
      ...(tag ? { tag } : {}),
    });
    for (const s of [(this.byStage[stage] ??= emptyUsage()), entry]) {
      s.calls += calls;
      s.promptTokens += usage.promptTokens;
      s.completionTokens += usage.completionTokens;
      s.reasoningTokens += usage.reasoningTokens;
      if (usage.cachedTokens) s.cachedTokens = (s.cachedTokens ?? 0) + usage.cachedTokens;
      if (usage.reportedUsd) s.reportedUsd = (s.reportedUsd ?? 0) + usage.reportedUsd;
      s.costUsd += cost;
    }
    const c = (this.completionSeen[role] ??= { n: 0, tokens: 0, max: 0 });
    c.n += calls;
    c.tokens += usage.completionTokens;
    c.max = Math.max(c.max, usage.completionTokens);
  }

  /** A checkpoint written now: its calls were metered as they were made. */
  noteCheckpoint(key: string): void {
    this.checkpoints.add(key);
  }

  /** The calls a checkpoint holds, counted once when a meter rebuilt from rows does not hold them. */
  addCheckpointed(key: string, stage: string, role: Role, usage: LlmUsage, calls: number, tag?: string): void {
    if (!this.rebuiltFromRows || this.checkpoints.has(key) || calls <= 0) return;
    this.checkpoints.add(key);
    this.add(stage, role, usage, 1, calls, tag);
  }

  snapshot(): MeterSnapshot {
    return structuredClone({ usage: this.ledger, completionSeen: this.completionSeen });
  }

  /** Count what a snapshot holds, priced at this meter's prices (a re-priced run is costed anew). */
  restore(snap: MeterSnapshot): void {
    for (const [key, u] of Object.entries(snap.usage)) {
      const cost = costOf(u, this.priceOf(u.role, u.tag)) * (u.priceFactor ?? 1);
      const mine = (this.ledger[key] ??= {
        ...emptyUsage(),
        stage: u.stage,
        role: u.role,
        ...(u.priceFactor ? { priceFactor: u.priceFactor } : {}),
        ...(u.tag ? { tag: u.tag } : {}),
      });
      for (const s of [(this.byStage[u.stage] ??= emptyUsage()), mine]) {
        s.calls += u.calls;
        s.promptTokens += u.promptTokens;
        s.completionTokens += u.completionTokens;
        s.reasoningTokens += u.reasoningTokens;
        if (u.cachedTokens) s.cachedTokens = (s.cachedTokens ?? 0) + u.cachedTokens;
        if (u.reportedUsd) s.reportedUsd = (s.reportedUsd ?? 0) + u.reportedUsd;
        s.costUsd += cost;
      }
    }
    for (const [role, c] of Object.entries(snap.completionSeen) as [
      Role,
      { n: number; tokens: number; max: number },
    ][]) {
      const mine = (this.completionSeen[role] ??= { n: 0, tokens: 0, max: 0 });
      mine.n += c.n;
      mine.tokens += c.tokens;
      mine.max = Math.max(mine.max, c.max);
    }
  }

  /** A finished call: release its reservation and record what it really used. */
  settle(r: Reservation, stage: string, usage: LlmUsage): void {
    this.release(r);
    this.add(stage, r.role, usage, r.priceFactor, 1, r.tag);
  }

  /** A call that did not happen or failed without usage. */
  release(r: Reservation): void {
    this.reservedUsd -= r.costUsd;
    this.reservedTokens -= r.tokens;
  }

  /**
   * A tagged call at its tag's price when it has one; a judge or user simulator without its own
   * price is billed at the optimizer's (it usually is the same model).
   */
  private priceOf(role: Role, tag?: string): Price | undefined {
    if (tag && this.tagPrices[tag]) return this.tagPrices[tag];
    return this.prices[role] ?? (role === 'judge' || role === 'userSimulator' ? this.prices.optimizer : undefined);
  }

  get totalCostUsd(): number {
    return Object.values(this.byStage).reduce((a, s) => a + s.costUsd, 0);
  }

  /** What the run has spent so far, as its learning curve counts it: target calls outside the test, and all cost. */
  spend(): Spend {
    const targetCalls = Object.values(this.ledger)
      .filter((u) => u.role === 'target' && u.stage !== 'test')
      .reduce((a, u) => a + u.calls, 0);
    return { targetCalls, costUsd: this.totalCostUsd };
  }

  get totalTokens(): number {
    return Object.values(this.byStage).reduce((a, s) => a + s.promptTokens + s.completionTokens, 0);
  }

  /**
   * Set aside the most a call can cost — its prompt, and the role's output limit (without one,
   * the longest completion seen so far, 512 before any) — or refuse it when spent + reserved +
   * this would cross the cap. With limits set, concurrent calls can never overshoot the cap.
   */
  reserve(role: Role, promptChars: number, priceFactor = 1, tag?: string): Reservation {
    const seen = this.completionSeen[role];
    const limit = this.outputLimits[role];
    const estimate: LlmUsage = {
      promptTokens: Math.ceil(promptChars / 3),
      completionTokens: limit ?? (seen && seen.n ? Math.max(seen.max, 64) : 512),
      reasoningTokens: 0,
    };
    const cost = costOf(estimate, this.priceOf(role, tag)) * priceFactor;
    const tokens = estimate.promptTokens + estimate.completionTokens;
    if (this.budget.usd !== undefined && this.totalCostUsd + this.reservedUsd + cost > this.budget.usd) {
      throw new PauseError(
        'budget',
        `Paused before exceeding the budget cap of $${this.budget.usd.toFixed(2)}: $${this.totalCostUsd.toFixed(4)} spent so far. Raise the cap to continue.`,
      );
    }
    if (this.budget.tokens !== undefined && this.totalTokens + this.reservedTokens + tokens > this.budget.tokens) {
      throw new PauseError(
        'budget',
        `Paused before exceeding the token budget of ${this.budget.tokens}: ${this.totalTokens} tokens used so far. Raise the budget to continue.`,
      );
    }
    this.reservedUsd += cost;
    this.reservedTokens += tokens;
    return { role, costUsd: cost, tokens, priceFactor, ...(tag ? { tag } : {}) };
  }
}

/** The output limits an LLM port declares, by role. */
export function outputLimits(llm: { outputLimit?(role: Role): number | undefined }): Partial<Record<Role, number>> {
  const out: Partial<Record<Role, number>> = {};
  for (const role of ['target', 'optimizer', 'judge', 'userSimulator'] as const) {
    const n = llm.outputLimit?.(role);
    if (n) out[role] = n;
  }
  return out;
}
