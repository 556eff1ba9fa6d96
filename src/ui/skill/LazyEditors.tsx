import { lazy, Suspense } from 'react';
import type { LineMark } from './blame-marks';

const SkillEditorChunk = lazy(() => import('./SkillEditor'));
const SkillDiffChunk = lazy(() => import('./SkillDiff'));

/** Monaco loads on first use; until then a plain textarea does the job. */
export function SkillEditor(props: {
  value: string;
  onChange?: (v: string) => void;
  readOnly?: boolean;
  label: string;
  marks?: readonly LineMark[];
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
  return (
    <Suspense fallback={<p className="muted">Loading the diff viewer…</p>}>
      <SkillDiffChunk {...props} />
    </Suspense>
  );
}
