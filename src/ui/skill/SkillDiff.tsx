// Two skill versions side by side in Monaco's diff editor (lazy chunk).
import { useEffect, useRef } from 'react';
import { currentTheme, monaco } from './monaco-setup';

export default function SkillDiff({ original, modified, height = 420 }: { original: string; modified: string; height?: number }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const a = monaco.editor.createModel(original, 'markdown');
    const b = monaco.editor.createModel(modified, 'markdown');
    const diff = monaco.editor.createDiffEditor(host.current!, { readOnly: true, automaticLayout: true, renderSideBySide: true, wordWrap: 'on', minimap: { enabled: false }, theme: currentTheme(), originalEditable: false, fontSize: 13 });
    diff.setModel({ original: a, modified: b });
    return () => {
      diff.dispose();
      a.dispose();
      b.dispose();
    };
  }, [original, modified]);
  return <div ref={host} className="monaco-host" style={{ height }} data-testid="skill-diff" />;
}
