import { useState } from 'react';
import { forgetAllKeys, rememberKeys } from '../../client/keys';
import { useApp } from '../../store/app-store';
import { patchConnection } from './connection-edit';

/** Whether keys outlive the tab, and forgetting them. */
export function KeyStorage() {
  const remember = useApp((s) => s.connection.remember);
  const [forgotten, setForgotten] = useState<string | null>(null);
  // Ticking "Remember" stores the keys held at once; unticking deletes them from the device (this tab keeps its own).
  const setRemember = async (on: boolean) => {
    patchConnection({ remember: on });
    setForgotten(null);
    await rememberKeys(on);
  };
  const forget = async () => {
    await forgetAllKeys();
    setForgotten('Keys forgotten: nothing is stored on this device, and this tab holds none.');
  };
  return (
    <>
      <div className="row">
        <label className="check">
          <input type="checkbox" checked={remember} onChange={(e) => void setRemember(e.target.checked)} />
          Remember on this device
        </label>
        <span className="muted">
          Off: keys are forgotten when you close the tab. On: they are stored in this browser only, never exported.
        </span>
      </div>
      <div className="row">
        <button type="button" className="ghost danger" onClick={() => void forget()}>
          Forget keys on this device
        </button>
        {forgotten && <span className="ok-line">{forgotten}</span>}
      </div>
    </>
  );
}
