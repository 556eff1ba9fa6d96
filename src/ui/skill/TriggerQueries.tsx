import { parseTriggerQueries } from '../../core/dataset/trigger-queries';
import { setApp, useApp } from '../../store/app-store';
import { FileButton } from '../common/FileButton';

/**
 * The activation track's queries (issue #23 item 4): requests the skill should or should not be
 * loaded for. With the track on (Train), each epoch's end rewrites the description above from the
 * ones it fires wrongly on, and keeps a rewrite only if it decides better on held-out queries.
 */
export function TriggerQueries() {
  const tq = useApp((s) => s.triggerQueries);
  const on = useApp((s) => s.config.activationTrack);
  const open = async (f: File) => {
    const r = parseTriggerQueries(await f.text());
    if (!r.ok)
      return void setApp({
        problem: `${f.name} holds no usable trigger queries: ${r.problems.slice(0, 5).join('; ')}.`,
      });
    setApp({ triggerQueries: { queries: r.queries, source: f.name }, problem: null });
  };
  const should = tq?.queries.filter((q) => q.shouldTrigger).length ?? 0;
  return (
    <div className="trigger-queries" role="group" aria-label="Trigger queries">
      <div className="row">
        <FileButton
          text="Open trigger queries (.json)"
          label="Open trigger queries"
          accept=".json,application/json"
          onFiles={([f]) => void open(f)}
        />
        {tq && (
          <button type="button" onClick={() => setApp({ triggerQueries: null })}>
            Remove
          </button>
        )}
      </div>
      <p className="muted small">
        {tq ? (
          <>
            <strong>{tq.queries.length}</strong> trigger queries from {tq.source}: {should} should load the skill,{' '}
            {tq.queries.length - should} should not.{' '}
            {on
              ? 'The activation track will train the description on them.'
              : 'Turn on “Train the description (activation track)” on the Train screen to train the description on them.'}
          </>
        ) : (
          <>
            Requests the skill should or should not be loaded for, as skill-creator writes them:{' '}
            <code>
              [{'{'}"query": "…", "should_trigger": true{'}'}, …]
            </code>
            . With them, training can also improve the description — all an agent reads when it decides to load the
            skill.
          </>
        )}
      </p>
    </div>
  );
}
