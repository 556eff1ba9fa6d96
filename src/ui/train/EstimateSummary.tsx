import { memo } from 'react';
import { formatDuration, runSeconds, type Pace } from '../../core/config/run-duration';
import { callStageLabel } from '../../core/config/stages';
import type { RunConfig } from '../../core/config/run-config';
import type { CostEstimate } from '../../worker/api-types';
import { Card } from '../common/Field';

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 2 });
const usd = (x: number) => `$${x < 10 ? x.toFixed(2) : Math.round(x).toLocaleString()}`;
/** "a–b", or one figure when both ends are the same; a unit both ends share is said once ("4–13 s"). */
function range(lo: string, hi: string): string {
  if (lo === hi) return hi;
  const unit = / [a-z]+$/.exec(hi)?.[0];
  return unit && lo.endsWith(unit) ? `${lo.slice(0, -unit.length)}–${hi}` : `${lo}–${hi}`;
}

/**
 * The estimate in one line (issue #33): calls, tokens, cost and time from a run whose steps find
 * nothing to change to the upper bound, with the table per stage and the assumptions folded below.
 */
export const EstimateSummary = memo(function EstimateSummary({
  estimate: e,
  listCost,
  config,
  pace,
}: {
  estimate: CostEstimate;
  /** The same run at list prices, when a service tier or the batch API lowers them. */
  listCost: number | null;
  config: RunConfig;
  pace: Pace;
}) {
  const seconds = (stages: CostEstimate['stages']) => runSeconds(stages, config, pace);
  const cost =
    e.totalCostUsd === null || e.low.totalCostUsd === null
      ? 'cost unknown (no price for a role: set it on Connect)'
      : range(usd(e.low.totalCostUsd), usd(e.totalCostUsd));
  return (
    <Card>
      <div className="estimate-head">
        <h2>Estimate</h2>
        <p className="estimate-line" data-testid="estimate-line">
          <strong>{range(e.low.totalCalls.toLocaleString(), e.totalCalls.toLocaleString())} calls</strong> ·{' '}
          {range(compact.format(e.low.totalTokens), compact.format(e.totalTokens))} tokens · {cost} · about{' '}
          {range(formatDuration(seconds(e.low.stages)), formatDuration(seconds(e.stages)))}
        </p>
      </div>
      {listCost !== null && e.totalCostUsd !== null && listCost > e.totalCostUsd && (
        <p className="muted">
          Service tiers and the batch API (Connect) save about ${(listCost - e.totalCostUsd).toFixed(2)} of $
          {listCost.toFixed(2)} at list prices.
        </p>
      )}
      <details className="options">
        <summary>Per stage (upper bound) and what the estimate assumes</summary>
        <table className="table">
          <thead>
            <tr>
              <th>Stage</th>
              <th className="num">Calls</th>
              <th className="num">Prompt tokens</th>
              <th className="num">Completion tokens</th>
              <th className="num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(e.stages).map(([stage, s]) => (
              <tr key={stage}>
                <td>{callStageLabel(stage)}</td>
                <td className="num">{s!.calls.toLocaleString()}</td>
                <td className="num">{s!.promptTokens.toLocaleString()}</td>
                <td className="num">{s!.completionTokens.toLocaleString()}</td>
                <td className="num">{s!.costUsd === null ? '—' : `$${s!.costUsd.toFixed(3)}`}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>Total</td>
              <td className="num">{e.totalCalls.toLocaleString()}</td>
              <td className="num" colSpan={2}>
                {e.totalTokens.toLocaleString()} tokens
              </td>
              <td className="num">
                {e.totalCostUsd === null ? 'set prices on Connect' : `$${e.totalCostUsd.toFixed(2)}`}
              </td>
            </tr>
          </tfoot>
        </table>
        <ul className="muted small">
          {[...e.assumptions, pace.said].map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      </details>
    </Card>
  );
});
