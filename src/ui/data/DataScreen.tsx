import { useEffect, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { DatasetListItem } from '../../worker/api-types';
import { DatasetPreview, ProblemsAlert } from './DatasetPreview';
import { listExamples, type ExampleInfo } from './examples';
import { chooseDataset, SavedDatasets } from './SavedDatasets';
import { ScoringCard } from './ScoringCard';
import { EnvironmentCard } from './EnvironmentCard';
import { McpCard } from './McpCard';
import { SourceCard } from './SourceCard';
import { useStagedDataset } from './use-staged-dataset';

export function DataScreen() {
  const [examples, setExamples] = useState<ExampleInfo[]>([]);
  const [saved, setSaved] = useState<DatasetListItem[]>([]);
  const staged = useStagedDataset(async (d) => {
    chooseDataset(d);
    setSaved(await trainer().listDatasets());
  });
  useEffect(() => {
    void listExamples().then(setExamples);
    void trainer().listDatasets().then(setSaved);
  }, []);
  const { loaded } = staged;
  const ins = loaded?.inspection;

  return (
    <div className="screen">
      <h1>Load a dataset</h1>
      <p className="lead">
        Tasks with expected answers: JSON (a list, or {'{train, val, test}'}), JSONL or CSV. The train split teaches,
        the validation split gates every edit, the test split reports at the end.
      </p>
      <SourceCard
        examples={examples}
        busy={staged.busy}
        ratio={staged.ratio}
        stage={staged.stage}
        setRatio={staged.setRatio}
      />
      {loaded && loaded.problems.length > 0 && <ProblemsAlert loaded={loaded} />}
      {loaded && ((ins?.fieldNames.length ?? 0) > 0 || ins?.counts) && (
        <DatasetPreview
          loaded={loaded}
          mapping={staged.mapping}
          ratio={staged.ratio}
          seed={staged.seed}
          busy={staged.busy}
          choose={staged.choose}
          save={() => void staged.save()}
        />
      )}
      <ScoringCard />
      <EnvironmentCard />
      <McpCard />
      <SavedDatasets saved={saved} />
    </div>
  );
}
