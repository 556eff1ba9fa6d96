import { useEffect, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { runEndpoints, useApp } from '../../store/app-store';
import { handOverKeys } from '../../client/keys';
import type { RolloutRow } from '../../worker/api-types';
import { Alert, Card, NumberField } from '../common/Field';
import { VirtualTable } from '../common/VirtualTable';
import { chargedPrices } from '../../core/config/service-tier';
import { isPass } from '../../core/verdict/credit';

/** Score the skill being edited on a split of the chosen dataset — a quick check before training. */
export function EvaluatePanel() {
  const datasetId = useApp((s) => s.datasetId);
  const [split, setSplit] = useState<'train' | 'val' | 'test'>('val');
  const [limit, setLimit] = useState<number | undefined>(20);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{
    hard: number;
    soft: number;
    n: number;
    errors: number;
    rows: RolloutRow[];
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [testLooks, setTestLooks] = useState<number | null>(null);
  // Read only when the test split is chosen: listing datasets reads their stored records whole.
  const onTest = split === 'test';
  useEffect(() => {
    if (!datasetId || !onTest) return;
    void trainer()
      .listDatasets()
      .then((list) => setTestLooks(list.find((d) => d.id === datasetId)?.testLooks ?? 0));
  }, [datasetId, onTest, result]);
  if (!datasetId) return null;
  const run = async () => {
    const s = useApp.getState();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      await handOverKeys();
      const r = await trainer().evaluateSkill({
        datasetId,
        split,
        limit: limit ?? 0,
        skill: s.skill,
        config: s.config,
        endpoints: runEndpoints(s.connection),
        prices: chargedPrices(s.connection.prices, s.connection),
        ...(s.environmentModule ? { environment: { module: s.environmentModule.module } } : {}),
      });
      if (r.ok) setResult(r);
      else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  const failures = result?.rows.filter((r) => r.status === 'error' || !isPass(r.hard)) ?? [];
  return (
    <Card title="Evaluate this skill">
      <div className="row">
        <label className="inline">
          Split
          <select aria-label="Evaluation split" value={split} onChange={(e) => setSplit(e.target.value as 'val')}>
            <option value="val">validation</option>
            <option value="train">train</option>
            <option value="test">test</option>
          </select>
        </label>
        <NumberField label="Items (0 = all)" value={limit} min={0} onChange={setLimit} />
        <button type="button" onClick={() => void run()} disabled={busy}>
          {busy ? 'Evaluating…' : 'Evaluate skill'}
        </button>
      </div>
      {split === 'test' && (
        <p className="warn" role="note">
          The test split is for the end of training. Scores you look at now — to choose a skill, a setting or a prompt —
          make it a second validation split, and its final figure is no longer an honest estimate. Prefer the validation
          split.
          {testLooks
            ? ` This dataset’s test split has been looked at ${testLooks} time${testLooks === 1 ? '' : 's'} already.`
            : ''}
        </p>
      )}
      {error && <Alert>{error}</Alert>}
      {result && (
        <>
          <p>
            <strong>{(result.hard * 100).toFixed(1)}%</strong> correct ({(result.soft * 100).toFixed(1)}% partial
            credit) on {result.n} items
            {result.errors ? `; ${result.errors} errored and were not scored` : ''}.
          </p>
          {failures.length > 0 && (
            <VirtualTable<RolloutRow>
              label="Failed items"
              rows={failures}
              height={240}
              rowKey={(r) => r.itemId}
              columns={[
                { title: 'Item', width: '7rem', cell: (r) => <code>{r.itemId}</code> },
                { title: 'Answer', width: '12rem', cell: (r) => <span className="mono">{r.predicted}</span> },
                { title: 'Why', cell: (r) => <span className="small">{r.error?.message ?? r.failReason}</span> },
              ]}
            />
          )}
        </>
      )}
    </Card>
  );
}
