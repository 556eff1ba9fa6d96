// Two skill versions side by side in Monaco's diff editor (lazy chunk).
import { useEffect, useRef } from 'react';
import { currentTheme, monaco } from './monaco-setup';

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
      const models = diff.getModel();
      diff.setModel(null);
      diff.dispose();
      models?.original.dispose();
      models?.modified.dispose();
      editor.current = null;
    };
  }, []);
  useEffect(() => {
    const diff = editor.current;
    if (!diff) return;
    const previous = diff.getModel();
    diff.setModel({
      original: monaco.editor.createModel(original, 'markdown'),
      modified: monaco.editor.createModel(modified, 'markdown'),
    });
    if (!previous) return;
    // The diff worker may still be reading the previous models: retire them once the new diff is in.
    const retire = () => {
      sub.dispose();
      clearTimeout(timer);
      previous.original.dispose();
      previous.modified.dispose();
    };
    const sub = diff.onDidUpdateDiff(retire);
    const timer = setTimeout(retire, 5_000);
  }, [original, modified]);
  return <div ref={host} className="monaco-host" style={{ height }} data-testid="skill-diff" />;
}
