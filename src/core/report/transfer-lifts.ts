/**
 * A run's transfer (issue #42 item 5) as every reader shows it — the runner's closing lines and
 * JSON, the HTML report, the lift card: per target, the starting and best skills' test accuracy
 * and the lift with its interval, and the verdict read from them (core/verdict/transfer.ts), made
 * again here rather than trusted from a file. An entry whose figures are not numbers (a crafted
 * bundle's) is left out.
 */
import { shownLift } from '../verdict/lift';
import { liftSide, transferVerdict, type LiftSide, type TransferVerdict } from '../verdict/transfer';
import { isNum } from './html';

export interface TransferRow {
  label: string;
  trained: boolean;
  /** Test accuracy of the starting and the best skill under this target (the same when they are one skill). */
  initial: number | null;
  best: number | null;
  /** Test items scored. */
  n: number | null;
  /** The lift a person is shown, and its interval. */
  lift: number;
  interval: [number, number];
  level: number;
  side: LiftSide;
}

interface StoredTest {
  skill?: unknown;
  hard?: unknown;
  n?: unknown;
}

interface StoredTarget {
  label?: unknown;
  trained?: unknown;
  tests?: unknown;
  lift?: {
    measured?: unknown;
    estimate?: unknown;
    interval?: unknown;
    level?: unknown;
    noise?: { miss?: unknown; guess?: unknown };
  };
}

function rowOf(t: StoredTarget): TransferRow | null {
  const l = t.lift;
  const iv = l?.interval;
  if (typeof t.label !== 'string' || !l || !Array.isArray(iv) || !isNum(iv[0]) || !isNum(iv[1])) return null;
  if (![l.measured, l.estimate, l.level, l.noise?.miss, l.noise?.guess].every(isNum)) return null;
  const tests: StoredTest[] = Array.isArray(t.tests) ? t.tests : [];
  const hard = (skill: string) => {
    const x = tests.find((s) => s?.skill === skill)?.hard;
    return isNum(x) ? x : null;
  };
  const n = tests.find((s) => isNum(s?.n))?.n;
  const noise = { miss: l.noise!.miss as number, guess: l.noise!.guess as number };
  const interval: [number, number] = [iv[0], iv[1]];
  return {
    label: t.label,
    trained: t.trained === true,
    // One skill tested once stands for both when the best is the starting skill.
    initial: hard('initial') ?? hard('best'),
    best: hard('best') ?? hard('initial'),
    n: isNum(n) ? n : null,
    lift: shownLift({ measured: l.measured as number, estimate: l.estimate as number, noise }),
    interval,
    level: l.level as number,
    side: liftSide(interval),
  };
}

/** A stored transfer's rows and verdict; null when it holds no well-formed confirming target. */
export function transferLifts(transfer: unknown): { rows: TransferRow[]; verdict: TransferVerdict } | null {
  const targets = (transfer as { targets?: unknown } | undefined)?.targets;
  if (!Array.isArray(targets)) return null;
  const rows = targets
    .map((t: StoredTarget) => (t && typeof t === 'object' ? rowOf(t) : null))
    .filter((r) => r !== null);
  if (!rows.some((r) => !r.trained)) return null;
  const verdict = transferVerdict(rows.map((r) => ({ ...r, shown: r.lift })));
  return { rows, verdict };
}
