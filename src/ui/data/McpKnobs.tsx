import { useState } from 'react';
import { MCP_DEFAULTS } from '../../core/agent/mcp-servers';
import { setApp, useApp } from '../../store/app-store';
import { Field } from '../common/Field';

type Knob = 'toolConcurrency' | 'timeoutSeconds';

const KNOBS: { key: Knob; label: string; hint: string; min: number; max: number; step: number }[] = [
  {
    key: 'toolConcurrency',
    label: 'Tool calls at once',
    hint: 'A tool call is not a model call: MCP calls under way at once, over all trajectories.',
    min: 1,
    max: 64,
    step: 1,
  },
  {
    key: 'timeoutSeconds',
    label: 'Tool time limit (s)',
    hint: 'A server that does not answer in time pauses the run (resumable); the item is never scored.',
    min: 1,
    max: 3600,
    step: 1,
  },
];

/** One knob: typed freely, kept in the run's MCP settings whenever it is a number in range. */
function McpKnob({ knob }: { knob: (typeof KNOBS)[number] }) {
  const stored = useApp((s) => s.mcp?.[knob.key] ?? MCP_DEFAULTS[knob.key]);
  const [text, setText] = useState(String(stored));
  const n = Number(text);
  const ok = text.trim() !== '' && Number.isFinite(n) && n >= knob.min && n <= knob.max;
  return (
    <Field
      label={knob.label}
      hint={ok ? knob.hint : `A number from ${knob.min} to ${knob.max}; the run uses ${stored}.`}
    >
      {(id, hintId) => (
        <input
          id={id}
          type="number"
          min={knob.min}
          max={knob.max}
          step={knob.step}
          aria-describedby={hintId}
          aria-invalid={!ok}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            const v = Number(e.target.value);
            if (e.target.value.trim() !== '' && v >= knob.min && v <= knob.max)
              setApp((s) => (s.mcp ? { mcp: { ...s.mcp, [knob.key]: v } } : {}));
          }}
        />
      )}
    </Field>
  );
}

/** How the run calls its MCP servers' tools (issue #31): their own concurrency and time limit. */
export function McpKnobs() {
  return (
    <div className="grid-2">
      {KNOBS.map((k) => (
        <McpKnob key={k.key} knob={k} />
      ))}
    </div>
  );
}
