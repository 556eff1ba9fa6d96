// The Monaco skill editor (lazy chunk). One model per URI; external changes replace the text
// with an undo stop and do not echo back; protected regions are highlighted.
import { useEffect, useRef } from 'react';
import { currentTheme, monaco } from './monaco-setup';
import { protectedLineRanges } from './protected-lines';
import type { LineMark } from './blame-marks';
import type { CreditMark } from './credit-marks';

export default function SkillEditor({
  value,
  onChange,
  readOnly,
  label,
  marks,
  credit,
}: {
  value: string;
  onChange?: (v: string) => void;
  readOnly?: boolean;
  label: string;
  marks?: readonly LineMark[];
  /** Section credit: a bar beside each section and its effect after the heading. */
  credit?: readonly CreditMark[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const blame = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const credited = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
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
    blame.current = editor.createDecorationsCollection();
    credited.current = editor.createDecorationsCollection();
    const mark = () => {
      decorations.current?.set(
        protectedLineRanges(model.getValue()).map((r) => ({
          range: new monaco.Range(r.start, 1, r.end, 1),
          options: {
            isWholeLine: true,
            className: 'protected-line',
            hoverMessage: { value: `${r.kind}: written by the optimizer; edits never touch it.` },
          },
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

  // Edit blame: a bar in the gutter per line, its source on hover (marks follow the text they were made for).
  useEffect(() => {
    const lines = editorRef.current?.getModel()?.getLineCount() ?? 0;
    blame.current?.set(
      (marks ?? [])
        .filter((m) => m.line <= lines)
        .map((m) => ({
          range: new monaco.Range(m.line, 1, m.line, 1),
          options: { isWholeLine: true, linesDecorationsClassName: m.className, hoverMessage: { value: m.hover } },
        })),
    );
  }, [marks, value]);

  // Section credit: the glyph margin (left of the line numbers) holds a bar per section, the heading its effect.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    const lines = model?.getLineCount() ?? 0;
    editor?.updateOptions({ glyphMargin: Boolean(credit?.length) });
    credited.current?.set(
      (credit ?? [])
        .filter((m) => m.endLine <= lines)
        .flatMap((m) => [
          {
            range: new monaco.Range(m.startLine, 1, m.endLine, 1),
            options: {
              isWholeLine: true,
              glyphMarginClassName: m.className,
              glyphMarginHoverMessage: { value: m.hover },
            },
          },
          {
            // The heading's whole text: the injected text of an empty range is not drawn.
            range: new monaco.Range(m.startLine, 1, m.startLine, model!.getLineMaxColumn(m.startLine)),
            options: { after: { content: m.label, inlineClassName: `credit-label ${m.className.split(' ')[1]}` } },
          },
        ]),
    );
  }, [credit, value]);

  return <div ref={host} className="monaco-host" data-testid="skill-editor" />;
}
