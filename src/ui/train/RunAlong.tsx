import { useState } from 'react';
import { setApp, useApp } from '../../store/app-store';

/** Phones and tablets stop background tabs: a run there only goes on while the tab is in front. */
function onPhone(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  return (
    nav.userAgentData?.mobile ??
    (globalThis.matchMedia?.('(pointer: coarse)').matches === true &&
      /Android|iPhone|iPad|Mobile/i.test(navigator.userAgent))
  );
}

/** Staying with a run: keep the screen awake, be notified when it ends, and the phone caveat. */
export function RunAlong() {
  const keepAwake = useApp((s) => s.keepAwake);
  const notifyOnEnd = useApp((s) => s.notifyOnEnd);
  const running = useApp((s) => s.live?.status === 'running');
  const [note, setNote] = useState<string | null>(null);
  const canWake = 'wakeLock' in navigator;
  const canNotify = typeof Notification !== 'undefined';

  const setNotify = async (on: boolean) => {
    setNote(null);
    if (!on) return setApp({ notifyOnEnd: false });
    const permission =
      Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission === 'granted') setApp({ notifyOnEnd: true });
    else
      setNote(
        'The browser does not allow notifications from this page; allow them in the site settings to be notified.',
      );
  };

  return (
    <div className="run-along">
      {/* Folded: two choices about the device, not the run (issue #33 keeps the screen to the run's). */}
      <details>
        <summary>
          While a run runs: {keepAwake && canWake ? 'the screen stays awake' : 'the screen may sleep'},{' '}
          {notifyOnEnd && canNotify ? 'a notification at the end' : 'no notification'}
        </summary>
        <label className="check" title={canWake ? undefined : 'This browser has no screen wake lock.'}>
          <input
            type="checkbox"
            checked={keepAwake && canWake}
            disabled={!canWake}
            onChange={(e) => setApp({ keepAwake: e.target.checked })}
          />
          Keep the screen awake during a run
        </label>
        <label className="check" title={canNotify ? undefined : 'This browser has no notifications.'}>
          <input
            type="checkbox"
            checked={notifyOnEnd && canNotify}
            disabled={!canNotify}
            onChange={(e) => void setNotify(e.target.checked)}
          />
          Notify me when a run ends
        </label>
      </details>
      {note && <span className="warn">{note}</span>}
      {running && onPhone() && (
        <p className="warn" role="note">
          On a phone the browser pauses a tab in the background: keep Skillwright in front while it trains. If it is
          stopped anyway, the run resumes from its last checkpoint.
        </p>
      )}
    </div>
  );
}
