// Two skill versions side by side in Monaco's diff editor (lazy chunk).
import { useEffect, useRef } from 'react';
import { currentTheme, monaco } from './monaco-setup';

type ViewModel = monaco.editor.IDiffEditorViewModel;

/**
 * Retire a diff: its view model first — that cancels a diff still being computed — then its text
 * models. Monaco never disposes a view model made by `setModel({ original, modified })`, so a diff
 * computed while its models were disposed reported "no diff result available" as an error
 * (issue #28): each view model here is made with `createViewModel` and disposed by us.
 */
function retire(vm: ViewModel): void {
  vm.dispose();
  vm.model.original.dispose();
  vm.model.modified.dispose();
}

export default function SkillDiff({
  original,
  modified,
  height = 420,
}: {
  original: string;
  modified: string;
  height?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const shown = useRef<ViewModel | null>(null);
  // One editor for the component's life: re-creating it on every change (say, stepping through
  // the inspector quickly) lets Monaco's pending work hit a disposed editor and log errors.
  useEffect(() => {
    const diff = monaco.editor.createDiffEditor(host.current!, {
      readOnly: true,
      automaticLayout: true,
      renderSideBySide: true,
      wordWrap: 'on',
      minimap: { enabled: false },
      theme: currentTheme(),
      originalEditable: false,
      fontSize: 13,
    });
    editor.current = diff;
    return () => {
      diff.setModel(null);
      if (shown.current) retire(shown.current);
      shown.current = null;
      diff.dispose();
      editor.current = null;
    };
  }, []);
  useEffect(() => {
    const diff = editor.current;
    if (!diff) return;
    const vm = diff.createViewModel({
      original: monaco.editor.createModel(original, 'markdown'),
      modified: monaco.editor.createModel(modified, 'markdown'),
    });
    const previous = shown.current;
    diff.setModel(vm);
    shown.current = vm;
    if (previous) retire(previous);
  }, [original, modified]);
  return <div ref={host} className="monaco-host" style={{ height }} data-testid="skill-diff" />;
}
