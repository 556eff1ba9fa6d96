// The Monaco skill editor (lazy chunk). One model per URI; external changes replace the text
// with an undo stop and do not echo back; protected regions are highlighted.
import { useEffect, useRef } from 'react';
import { currentTheme, monaco } from './monaco-setup';
import { protectedLineRanges } from './protected-lines';

export default function SkillEditor({ value, onChange, readOnly, label }: { value: string; onChange?: (v: string) => void; readOnly?: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const onChangeRef = useRef(onChange);
  const applying = useRef(false);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const model = monaco.editor.createModel(value, 'markdown');
    const editor = monaco.editor.create(host.current!, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      readOnly,
      theme: currentTheme(),
      fontSize: 13,
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      ariaLabel: label,
    });
    decorations.current = editor.createDecorationsCollection();
    const mark = () => {
      decorations.current?.set(
        protectedLineRanges(model.getValue()).map((r) => ({
          range: new monaco.Range(r.start, 1, r.end, 1),
          options: { isWholeLine: true, className: 'protected-line', hoverMessage: { value: `${r.kind}: written by the optimizer; edits never touch it.` } },
        })),
      );
    };
    mark();
    const sub = editor.onDidChangeModelContent(() => {
      mark();
      if (!applying.current) onChangeRef.current?.(model.getValue());
    });
    editorRef.current = editor;
    return () => {
      sub.dispose();
      editor.dispose();
      model.dispose();
    };
    // The editor is created once; value changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || model.getValue() === value) return;
    applying.current = true;
    try {
      editor.pushUndoStop();
      editor.executeEdits('external', [{ range: model.getFullModelRange(), text: value }]);
      editor.pushUndoStop();
    } finally {
      applying.current = false;
    }
  }, [value]);

  return <div ref={host} className="monaco-host" data-testid="skill-editor" />;
}
