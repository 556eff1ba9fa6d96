import { useEffect, useMemo, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { submitReviewAndResume } from '../../client/run-controller';
import { applyPatch } from '../../core/skill/edits';
import type { ReviewRequest } from '../../worker/api-types';
import { Card } from '../common/Field';
import { SkillDiff } from '../skill/LazyEditors';

/**
 * Steering before the gate: the step's proposed edits, each to approve or veto, with the
 * candidate the approved ones make; continuing stores the decision and resumes the run, which
 * gates only what was approved. Shown while a run waits for a review (also after a reload).
 */
export function ReviewPanel({ runId }: { runId: string }) {
  const [review, setReview] = useState<{ step: number; request: ReviewRequest } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [vetoed, setVetoed] = useState<Set<number>>(new Set());
  const [sending, setSending] = useState(false);
  // Bumped when a decision was refused because the proposal changed: the panel reads it again.
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The pause is announced as it is stored; should the page ask a moment too early, it asks again.
    const load = (tries: number) =>
      void trainer()
        .getReview(runId)
        .then((r) => {
          if (!live) return;
          if (r.ok) {
            setReview({ step: r.step, request: r.request });
            setVetoed(new Set());
          } else if (tries > 1) timer = setTimeout(() => load(tries - 1), 300);
          else setError(r.error.message);
        });
    load(5);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [runId, reads]);
  const preview = useMemo(() => {
    if (!review) return '';
    const { request } = review;
    if (!request.edits) return vetoed.has(0) ? request.skillBefore : request.candidate;
    return applyPatch(
      request.skillBefore,
      request.edits.filter((_, i) => !vetoed.has(i)),
    ).skill;
  }, [review, vetoed]);
  if (error) return <p className="muted">{error}</p>;
  if (!review) return <p className="muted">Loading the proposal…</p>;
  const { step, request } = review;
  const approved = request.items.map((_, i) => i).filter((i) => !vetoed.has(i));
  const toggle = (i: number) =>
    setVetoed((v) => {
      const next = new Set(v);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });
  const send = async (list: number[]) => {
    setSending(true);
    if (!(await submitReviewAndResume(runId, step, list, request.proposal ?? null))) setReads((n) => n + 1);
    setSending(false);
  };
  return (
    <Card title={`Review step ${step} before the gate`}>
      <p className="muted small">{request.reasoning}</p>
      <ol className="edits" aria-label="Proposed changes">
        {request.items.map((item, i) => (
          <li key={i} className={vetoed.has(i) ? 'dropped' : undefined}>
            <label className="check">
              <input type="checkbox" checked={!vetoed.has(i)} onChange={() => toggle(i)} /> Approve: {item.label}
            </label>
            <div className="mono small">{request.edits ? String(request.edits[i].content ?? '') : item.detail}</div>
          </li>
        ))}
      </ol>
      <p className="small">
        {approved.length} of {request.items.length} approved. The gate scores what you approve on validation and keeps
        it only if it scores higher; vetoed changes are not tried.
      </p>
      <div className="actions-bar">
        <button type="button" className="primary" disabled={sending} onClick={() => void send(approved)}>
          Gate the approved changes and continue
        </button>
        <button type="button" disabled={sending} onClick={() => void send([])}>
          Veto all and continue
        </button>
      </div>
      <SkillDiff original={request.skillBefore} modified={preview} height={280} />
    </Card>
  );
}
