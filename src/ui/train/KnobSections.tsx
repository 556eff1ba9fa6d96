import {
  KNOB_SECTIONS,
  KNOBS,
  knobDiffers,
  knobMatches,
  knobShown,
  type Knob,
  type KnobKey,
  type KnobSection,
} from '../../core/config/knobs';
import type { RunConfig } from '../../core/config/run-config';
import { KnobField } from './KnobField';

const knobs = KNOBS as readonly Knob[];

/**
 * The settings beyond the essentials (issue #33): each section folded under a header that counts
 * its settings set away from their default. With a search, the settings whose name or help match,
 * in their sections, open. Every setting stays in the page, so a browser's find opens its section.
 */
export function KnobSections({
  config,
  patch,
  base,
  query,
  extraHints,
}: {
  config: RunConfig;
  patch: (p: Partial<RunConfig>) => void;
  /** The defaults a knob is compared with (scaled to the dataset). */
  base: Readonly<Record<string, unknown>>;
  query: string;
  extraHints: Partial<Record<KnobKey, string>>;
}) {
  const q = query.trim();
  const groups = (Object.keys(KNOB_SECTIONS) as KnobSection[])
    .map((section) => ({
      section,
      knobs: knobs.filter(
        (k) => k.section === section && knobShown(k, config) && (q ? knobMatches(k, q) : !k.essential),
      ),
    }))
    .filter((g) => g.knobs.length > 0);
  if (q && groups.length === 0) return <p className="muted">No setting matches “{q}”.</p>;
  return (
    <>
      {groups.map(({ section, knobs: shown }) => {
        const fields = (
          <div className="grid-3">
            {shown.map((k) => (
              <KnobField key={k.key} knob={k} config={config} patch={patch} extraHint={extraHints[k.key as KnobKey]} />
            ))}
          </div>
        );
        if (q)
          return (
            <fieldset key={section} className="knob-section">
              <legend>{KNOB_SECTIONS[section]}</legend>
              {fields}
            </fieldset>
          );
        const changed = shown.filter((k) => knobDiffers(k, config, base)).length;
        return (
          <details key={section} className="knob-section">
            <summary>
              <span className="knob-section-title">{KNOB_SECTIONS[section]}</span>{' '}
              <span className="muted">
                {shown.length} setting{shown.length === 1 ? '' : 's'}
              </span>
              {changed > 0 && <span className="badge changed">{changed} changed</span>}
            </summary>
            {fields}
          </details>
        );
      })}
    </>
  );
}
