import { DEFAULT_RUN_CONFIG, scaledDefaults } from '../../core/config/run-config';
import { setApp, useApp } from '../../store/app-store';
import type { DatasetListItem } from '../../worker/api-types';
import { Card } from '../common/Field';

/** Select a dataset; the batch-size knobs follow its size (the paper's defaults assume hundreds of items). */
export function chooseDataset(d: DatasetListItem) {
  setApp((s) => ({
    datasetId: d.id,
    datasetName: d.name,
    config: {
      ...s.config,
      batchSize: DEFAULT_RUN_CONFIG.batchSize,
      minibatchSize: DEFAULT_RUN_CONFIG.minibatchSize,
      slowUpdateSamples: DEFAULT_RUN_CONFIG.slowUpdateSamples,
      ...scaledDefaults(d.counts.train),
    },
  }));
}

/** The datasets stored in this browser, the one training will use marked. */
export function SavedDatasets({ saved }: { saved: DatasetListItem[] }) {
  const datasetId = useApp((s) => s.datasetId);
  const current = saved.find((d) => d.id === datasetId);
  return (
    <Card title="Datasets in this browser">
      {saved.length === 0 ? (
        <p className="muted">None yet. Upload a dataset or load an example.</p>
      ) : (
        <ul className="list">
          {saved.map((d) => (
            <li key={d.id} className={d.id === datasetId ? 'selected' : undefined}>
              <label className="check">
                <input type="radio" name="dataset" checked={d.id === datasetId} onChange={() => chooseDataset(d)} />
                <span>
                  <strong>{d.name}</strong> — {d.counts.train} train, {d.counts.val} validation, {d.counts.test} test
                  {d.testLooks > 0 && (
                    <span className="warn">
                      {' '}
                      · test split looked at {d.testLooks} time{d.testLooks === 1 ? '' : 's'} before training ended
                    </span>
                  )}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {current && <p className="ok-line">Training will use {current.name}.</p>}
    </Card>
  );
}
