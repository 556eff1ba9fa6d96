import { useEffect, useMemo, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { SkillBlame } from '../../worker/api-types';
import { blameMarks, rangesByFile, sourceTitle, type LineMark } from './blame-marks';

const LEGEND: [string, string][] = [
  ['initial', 'starting skill'],
  ['step', 'a training step'],
  ['slow_update', 'epoch guidance'],
  ['appendix', 'reminder'],
  ['edited', 'edited outside training'],
];

/**
 * Edit blame for a skill that came from a run: which step wrote each line, with its edit, the
 * analysts' reasoning and the items behind it — in the editor's gutter and hover (via `onMarks`)
 * and as a list here. Follows the text as it is edited (new lines are "edited outside training").
 */
export function BlamePanel({
  runId,
  runLabel,
  skill,
  onMarks,
  alwaysOn = false,
}: {
  runId: string;
  runLabel: string;
  skill: string;
  onMarks: (m: LineMark[] | undefined) => void;
  /** Shown without the toggle (a stored version's blame on the Runs screen). */
  alwaysOn?: boolean;
}) {
  const [on, setOn] = useState(alwaysOn);
  const [blame, setBlame] = useState<SkillBlame | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!on) return;
    let live = true;
    const t = setTimeout(() => {
      void trainer()
        .blameSkill(runId, skill)
        .then((r) => {
          if (!live) return;
          if (r.ok) {
            setBlame(r.blame);
            setError(null);
          } else setError(r.error.message);
        });
    }, 300);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [on, runId, skill]);
  const shown = on ? blame : null;
  const marks = useMemo(() => (shown ? blameMarks(shown) : undefined), [shown]);
  useEffect(() => onMarks(marks), [marks, onMarks]);
  const lines = skill.replace(/\n$/, '').split('\n');
  return (
    <div className="blame">
      {!alwaysOn && (
        <label className="check">
          <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} /> Show where each line came
          from (edit blame over the run that made {runLabel})
        </label>
      )}
      {error && <p className="muted">{error}</p>}
      {shown && (
        <>
          <p className="muted small">
            {LEGEND.map(([k, label]) => (
              <span key={k}>
                <span className={`blame-key blame-${k}`} aria-hidden="true" />
                {label}{' '}
              </span>
            ))}
            — hover a line in the editor for the details.
          </p>
          <ol className="blame-list" aria-label="Edit blame">
            {rangesByFile(shown.ranges, skill)
              // The starting skill's lines and blank lines need no explanation.
              .filter(
                (r) => shown.sources[r.key].kind !== 'initial' && lines.slice(r.start - 1, r.end).some((l) => l.trim()),
              )
              .map((r) => {
                const s = shown.sources[r.key];
                // The range's first line with an edit behind it (blank lines have none).
                const first = shown.lines.slice(r.start - 1, r.end).find((l) => l.edit || l.analysts);
                return (
                  <li key={`${r.start}-${r.key}`}>
                    <span className={`blame-key blame-${s.kind}`} aria-hidden="true" />
                    <strong>{r.label}</strong> · {sourceTitle(s)}
                    <div className="mono small">
                      {lines
                        .slice(r.start - 1, r.end)
                        .join(' ⏎ ')
                        .slice(0, 200)}
                    </div>
                    {first?.edit && (
                      <div className="small">
                        Edit: {first.edit.op} ({first.edit.source}, support {first.edit.support})
                      </div>
                    )}
                    {first?.analysts?.map((a, i) => (
                      <div key={i} className="small">
                        Analyst: {a}
                      </div>
                    ))}
                    {s.changeSummary && s.changeSummary.length > 0 && (
                      <div className="small">Rewrite: {s.changeSummary.join('; ')}</div>
                    )}
                    {s.failingItems && s.failingItems.length > 0 && (
                      <div className="muted small">
                        Failing train items: {s.failingItems.slice(0, 12).join(', ')}
                        {s.failingItems.length > 12 ? ', …' : ''}
                      </div>
                    )}
                    {s.fixedItems && s.fixedItems.length > 0 && (
                      <div className="muted small">
                        Fixed on validation: {s.fixedItems.slice(0, 12).join(', ')}
                        {s.fixedItems.length > 12 ? ', …' : ''}
                      </div>
                    )}
                  </li>
                );
              })}
          </ol>
        </>
      )}
    </div>
  );
}
