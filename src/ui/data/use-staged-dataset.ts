/**
 * A dataset file on its way in: handed to the worker once (parsed there), checked again under the
 * person's mapping, shares and seed as they change them (one check per pause in typing; only the
 * latest answer is shown), then stored under the choices on screen.
 */
import { useEffect, useRef, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { useApp } from '../../store/app-store';

/** With an environment module, it scores the items: they need no expected answer (issue #30). */
const moduleChoices = () => (useApp.getState().environmentModule ? { answersOptional: true } : {});
import { formatProblem, type MappingRole } from '../../core/dataset/dataset-types';
import type { DatasetCheck, DatasetInspection, DatasetListItem } from '../../worker/api-types';

export interface Loaded {
  name: string;
  /** The file as staged in the worker (parsed there once); null when it could not be parsed. */
  draftId: string | null;
  inspection: DatasetInspection | null;
  problems: string[];
  truncated: boolean;
}

export type Mapping = Partial<Record<MappingRole, string>>;
export type Ratio = [number, number, number];

/** How long choices must stay unchanged before the worker checks them (one check per pause in typing). */
const RECHECK_DELAY_MS = 200;

function loadedFrom(name: string, draftId: string | null, res: DatasetCheck): Loaded {
  if (res.ok) return { name, draftId, inspection: res, problems: [], truncated: false };
  const problems = 'problems' in res && res.problems ? res.problems : (res.error.problems ?? []);
  return {
    name,
    draftId,
    inspection: 'fieldNames' in res ? (res as DatasetInspection) : null,
    problems: problems.map(formatProblem),
    truncated: Boolean(res.error.truncated),
  };
}

export function useStagedDataset(onStored: (d: DatasetListItem) => Promise<void>) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [ratio, setRatio] = useState<Ratio>([2, 1, 7]);
  const [seed, setSeed] = useState(42);
  const [busy, setBusy] = useState(false);
  // Only the answer to the latest request is shown; a pending re-check is dropped by a newer one.
  const latest = useRef(0);
  const recheckTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(recheckTimer.current), []);

  /** Hand a file to the worker once; it is parsed there and checked under the current shares. */
  const stage = async (name: string, file: Blob, r = ratio) => {
    clearTimeout(recheckTimer.current);
    const n = ++latest.current;
    if (loaded?.draftId) void trainer().discardStaged(loaded.draftId);
    setMapping({});
    setBusy(true);
    try {
      const res = await trainer().stageDataset(file, { fileName: name, ratio: r, splitSeed: seed, ...moduleChoices() });
      if (n === latest.current) setLoaded(loadedFrom(name, res.draftId ?? null, res));
    } finally {
      setBusy(false);
    }
  };

  /** The staged file under new choices, checked once the user pauses (nothing is sent again but the choices). */
  const recheck = (choices: { mapping?: Mapping; ratio?: Ratio; splitSeed?: number }) => {
    const draft = loaded;
    if (!draft?.draftId) return;
    clearTimeout(recheckTimer.current);
    const n = ++latest.current;
    recheckTimer.current = setTimeout(async () => {
      const res = await trainer().inspectStaged(draft.draftId!, {
        mapping,
        ratio,
        splitSeed: seed,
        ...moduleChoices(),
        ...choices,
      });
      if (n === latest.current) setLoaded(loadedFrom(draft.name, draft.draftId, res));
    }, RECHECK_DELAY_MS);
  };

  // Stores the file under the choices on screen, even if their check has not come back yet.
  const save = async () => {
    if (!loaded?.draftId) return;
    clearTimeout(recheckTimer.current);
    latest.current++;
    setBusy(true);
    try {
      const r = await trainer().commitStaged(loaded.draftId, {
        name: loaded.name,
        mapping,
        ratio,
        splitSeed: seed,
        ...moduleChoices(),
      });
      if (r.ok) {
        await onStored(r.dataset);
        setLoaded(null);
      } else
        setLoaded({
          ...loaded,
          problems: r.error.problems?.map(formatProblem) ?? [r.error.message],
          truncated: Boolean(r.error.truncated),
        });
    } finally {
      setBusy(false);
    }
  };

  const choose = {
    mapping: (m: Mapping) => {
      setMapping(m);
      recheck({ mapping: m });
    },
    ratio: (r: Ratio) => {
      setRatio(r);
      recheck({ ratio: r });
    },
    seed: (s: number) => {
      setSeed(s);
      recheck({ splitSeed: s });
    },
  };
  return { loaded, mapping, ratio, seed, busy, stage, save, choose, setRatio };
}
