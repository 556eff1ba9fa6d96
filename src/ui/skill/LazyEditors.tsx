import { changedFiles } from '../../core/skill/skill-package';
import { lazy, Suspense } from 'react';
import type { LineMark } from './blame-marks';
import type { CreditMark } from './credit-marks';

const SkillEditorChunk = lazy(() => import('./SkillEditor'));
const SkillDiffChunk = lazy(() => import('./SkillDiff'));

/** Monaco loads on first use; until then a plain textarea does the job. */
export function SkillEditor(props: {
  value: string;
  onChange?: (v: string) => void;
  readOnly?: boolean;
  label: string;
  marks?: readonly LineMark[];
  credit?: readonly CreditMark[];
}) {
  return (
    <Suspense
      fallback={
        <textarea
          className="plain-editor"
          aria-label={props.label}
          value={props.value}
          readOnly={props.readOnly}
          onChange={(e) => props.onChange?.(e.target.value)}
          spellCheck={false}
        />
      }
    >
      <SkillEditorChunk {...props} />
    </Suspense>
  );
}

export function SkillDiff(props: { original: string; modified: string; height?: number }) {
  const files = changedFiles(props.original, props.modified);
  return (
    <>
      {files && (
        <p className="changed-files" data-testid="changed-files">
          {files.length ? 'Files changed: ' : 'No file changed.'}
          {files.map((f, i) => (
            <span key={f}>
              {i > 0 && ', '}
              <code>{f}</code>
            </span>
          ))}
        </p>
      )}
      <Suspense fallback={<p className="muted">Loading the diff viewer…</p>}>
        <SkillDiffChunk {...props} />
      </Suspense>
    </>
  );
}
