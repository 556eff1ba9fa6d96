/**
 * One run on the Runs screen: its header (actions, status, lineage), why no step was accepted,
 * the lift and test report, the epochs, the steps with the inspector, and the skill versions.
 * This file loads the run and keeps it fresh while it is live; each part renders one concern.
 */
import { skillHash } from '../../core/basics/hash';
import { useEffect, useRef, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { setApp, useApp } from '../../store/app-store';
import type { RunDetail as Detail, SkillVersion, StepRecord } from '../../worker/api-types';
import { originLabel } from '../../core/skill/version-origin';
import { DiagnosisCard } from '../common/DiagnosisCard';
import { Alert } from '../common/Field';
import { LiftCard } from './LiftCard';
import { ConfirmCard } from './ConfirmCard';
import { StepInspector } from './StepInspector';
import { RunHeader } from './RunHeader';
import type { Lineage } from './RunLineage';
import { TestReportCard } from './TestReportCard';
import { SectionCreditCard } from './SectionCreditCard';
import { EpochsCard } from './EpochsCard';
import { ActivationCard } from './ActivationCard';
import { StepsCard } from './StepsCard';
import { VersionsCard } from './VersionsCard';
import { LearningCurve } from '../common/LearningCurve';
import type { CurveMark } from '../../core/report/learning-curve';

/**
 * The run, and the steps and versions after those the page already has: while a run is live this
 * is called after every step, and a long run's versions hold megabytes of text (issue #20 item 17).
 */
async function fetchRun(runId: string, have = { steps: 0, versions: 0 }) {
  const [run, steps, versions, curve] = await Promise.all([
    trainer().getRun(runId),
    trainer().getSteps(runId, have.steps, 10_000),
    trainer().getSkillVersions(runId, have.versions),
    trainer().getCurveMarks(runId),
  ]);
  return { run, steps: steps.steps, versions, curve, have };
}

export function RunDetail({
  runId,
  onDeleted,
  go,
  lineage,
  onSelect,
}: {
  runId: string;
  onDeleted: () => void;
  go: (section: string) => void;
  lineage?: Lineage;
  onSelect?: (id: string) => void;
}) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [steps, setSteps] = useState<StepRecord[]>([]);
  const [versions, setVersions] = useState<SkillVersion[]>([]);
  const [curve, setCurve] = useState<CurveMark[]>([]);
  // What the page has, for the live refresh to ask only for what is new.
  const stepsRef = useRef(steps);
  const versionsRef = useRef(versions);
  useEffect(() => {
    stepsRef.current = steps;
    versionsRef.current = versions;
  }, [steps, versions]);
  const [step, setStep] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const apply = (r: Awaited<ReturnType<typeof fetchRun>>) => {
    if (!r.run.ok) return setError(r.run.error.message);
    setDetail(r.run.detail);
    setCurve(r.curve);
    // Steps and versions are only ever added (a step is stored once, when it ends).
    setSteps((old) => (r.have.steps ? [...old.slice(0, r.have.steps), ...r.steps] : r.steps));
    setVersions((old) => (r.have.versions ? [...old.slice(0, r.have.versions), ...r.versions] : r.versions));
  };
  const load = () => void fetchRun(runId).then(apply);
  // While this run is the live one, each finished step and status change shows here too.
  const liveMark = useApp((s) => (s.live?.runId === runId ? `${s.live.status}:${s.live.points.length}` : null));
  useEffect(() => {
    // The parent keys this component by run id, so a new run starts from fresh state.
    void fetchRun(runId, { steps: stepsRef.current.length, versions: versionsRef.current.length }).then(apply);
  }, [runId, liveMark]);

  if (error) return <Alert>{error}</Alert>;
  if (!detail) return <p className="muted">Loading the run…</p>;
  const d = detail;
  // A branch from a step's skill continues with this run's dataset and settings.
  // Either keeps the run's package (its frontmatter and untrained files) for a package export.
  const branch = async (text: string, label: string, hash: string) => {
    const skillPackage = await trainer().getRunPackage(runId);
    setApp({
      skillPackage,
      skill: text,
      skillSource: `${d.run.name}, ${label}`,
      skillMeta: d.skillMeta ?? null,
      config: d.config,
      datasetId: d.run.datasetId,
      skillParent: { runId, hash, label },
    });
    go('skill');
  };
  // A new run from a version takes its text; the dataset and settings on Train stay the user's.
  const fromVersion = async (v: SkillVersion) => {
    const skillPackage = await trainer().getRunPackage(runId);
    setApp({
      skillPackage,
      skill: v.text,
      skillSource: `${d.run.name}, ${v.origin}`,
      skillParent: { runId, hash: v.hash, label: originLabel(v.origin) },
    });
    go('skill');
  };

  return (
    <div className="run-detail">
      <RunHeader
        runId={runId}
        detail={d}
        lineage={lineage}
        message={message}
        problem={problem}
        onMessage={(text) => {
          setProblem(null);
          setMessage(text);
        }}
        // An action that fails says so in the header; the run stays in view.
        onError={(text) => {
          setMessage(null);
          setProblem(text);
        }}
        onChanged={load}
        onDeleted={onDeleted}
        onSelect={onSelect}
        go={go}
      />
      {d.summary?.diagnosis && <DiagnosisCard diagnosis={d.summary.diagnosis} />}
      {curve.length > 0 && (
        <section className="card">
          <LearningCurve marks={curve} />
        </section>
      )}
      <LiftCard
        tests={d.summary?.tests ?? []}
        lift={d.summary?.lift}
        liftOverNone={d.summary?.liftOverNone}
        transfer={d.summary?.transfer}
      />
      <ConfirmCard runId={runId} detail={d} onChanged={load} />
      <TestReportCard tests={d.summary?.tests ?? []} testDelta={d.summary?.testDelta} />
      <SectionCreditCard credit={d.summary?.sectionCredit} />
      <ActivationCard activation={d.activation} gateConfidence={d.config.gateConfidence} />
      <EpochsCard epochs={d.epochStats} />
      <StepsCard steps={steps} selected={step} onInspect={setStep} />
      {step !== null && (
        <StepInspector
          runId={runId}
          step={step}
          onBranch={(text, label) => void skillHash(text).then((hash) => branch(text, label, hash))}
        />
      )}
      <VersionsCard runId={runId} versions={versions} best={d.bestSkill} onNewRun={fromVersion} />
    </div>
  );
}
