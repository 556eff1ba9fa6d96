import { useEffect, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { SkillMeta } from '../../core/skill/skill-file';
import { ExportSkill } from '../common/ExportSkill';
import { trainedDescription } from '../../core/dataset/trigger-queries';
import { DiagnosisCard } from '../common/DiagnosisCard';
import type { Diagnosis } from '../../core/verdict/diagnostics';

/** When the live run completes, its best skill can be saved from the Train screen too. */
export function CompletedExport({ runId }: { runId: string }) {
  const [best, setBest] = useState<{
    skill: string;
    name: string;
    meta?: SkillMeta;
    activation?: { description: string; initialDescription: string };
    score: number;
    diagnosis?: Diagnosis;
  } | null>(null);
  useEffect(() => {
    let live = true;
    void trainer()
      .getRun(runId)
      .then((r) => {
        if (live && r.ok)
          setBest({
            skill: r.detail.bestSkill,
            name: r.detail.run.name,
            meta: r.detail.skillMeta,
            activation: r.detail.activation,
            score: r.detail.bestScore,
            diagnosis: r.detail.summary?.diagnosis,
          });
      });
    return () => {
      live = false;
    };
  }, [runId]);
  if (!best) return null;
  return (
    <>
      <div className="actions-bar">
        <span className="ok-line">Done: the best skill scored {(best.score * 100).toFixed(1)}% on validation.</span>
        <ExportSkill
          skill={best.skill}
          runName={best.name}
          runId={runId}
          meta={best.meta}
          trainedDescription={trainedDescription(best.activation)}
        />
      </div>
      {best.diagnosis && <DiagnosisCard diagnosis={best.diagnosis} />}
    </>
  );
}
