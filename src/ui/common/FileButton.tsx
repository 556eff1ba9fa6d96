/**
 * A button that opens files: a label styled as a button over a transparent file input, so a
 * click, a keyboard and a test's `setInputFiles` all reach the input. The input is emptied after
 * each choice, so choosing the same file again (edited since) opens it again.
 */
export function FileButton({
  text,
  label,
  accept,
  folder,
  small,
  onFiles,
}: {
  /** What the button says. */
  text: string;
  /** The input's accessible name (tests and screen readers find it by this). */
  label: string;
  accept?: string;
  /** Choose a whole folder (its files, with their relative paths). */
  folder?: boolean;
  small?: boolean;
  onFiles: (files: File[]) => void;
}) {
  return (
    <label className={small ? 'file-label small' : 'file-label'}>
      <span>{text}</span>
      <input
        type="file"
        aria-label={label}
        accept={accept}
        {...(folder ? { webkitdirectory: '' } : {})}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </label>
  );
}
