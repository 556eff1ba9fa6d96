import { listPrice, presetPrice, retirementOf, type Price } from '../../core/config/pricing';
import { tieredPrice } from '../../core/config/service-tier';
import { useApp } from '../../store/app-store';
import { NumberField } from '../common/Field';
import { patchConnection, ROLE_LABEL } from './connection-edit';

const today = () => new Date().toISOString().slice(0, 10);

/** Where a role's list price comes from, its retirement, or that there is none (issue #44). */
function PriceNote({ role }: { role: 'target' | 'optimizer' }) {
  const c = useApp((s) => s.connection);
  const model = c[role].model;
  const list = listPrice(model);
  const retiring = retirementOf(model, today());
  if (c.prices[role] && !retiring) return null;
  return (
    <p className="muted small" data-testid={`price-note-${role}`}>
      {!c.prices[role] &&
        (list ? (
          <>
            {ROLE_LABEL[role]}: list price of {list.model}, checked {list.checked} ({list.source}).{' '}
          </>
        ) : (
          <strong className="warn">
            {ROLE_LABEL[role]}: no list price is known for {model || 'this model'} — enter its prices, or the estimate
            says the cost is unknown and the budget cap cannot count this role.{' '}
          </strong>
        ))}
      {retiring && (
        <strong className="warn">
          {model} {retiring.retired ? 'was retired' : 'retires'} on {retiring.date} (its provider’s announcement):
          choose a current model.
        </strong>
      )}
    </p>
  );
}

/** A role's prices: what the user typed, else the list price at the role's service tier — what the run is charged. */
export function PriceFields({ role }: { role: 'target' | 'optimizer' }) {
  const c = useApp((s) => s.connection);
  const price = c.prices[role] ?? tieredPrice(presetPrice(c[role].model), c[role].serviceTier);
  const set = (p: Partial<Price>) => {
    const next: Price = { input: price?.input ?? 0, output: price?.output ?? 0, ...p };
    if (price?.cachedInput !== undefined && !('cachedInput' in p)) next.cachedInput = price.cachedInput;
    if (next.cachedInput === undefined) delete next.cachedInput;
    patchConnection({ prices: { ...c.prices, [role]: next } });
  };
  return (
    <>
      <div className="grid-3">
        <NumberField
          label={`${ROLE_LABEL[role]} input price (USD / 1M tokens)`}
          value={price?.input}
          step={0.01}
          min={0}
          onChange={(v) => set({ input: v ?? 0 })}
        />
        <NumberField
          label={`${ROLE_LABEL[role]} cached input price (USD / 1M tokens)`}
          hint="Prompt tokens the endpoint says it served from its cache; empty: the input price."
          value={price?.cachedInput}
          step={0.001}
          min={0}
          onChange={(v) => set({ cachedInput: v })}
        />
        <NumberField
          label={`${ROLE_LABEL[role]} output price (USD / 1M tokens)`}
          value={price?.output}
          step={0.01}
          min={0}
          onChange={(v) => set({ output: v ?? 0 })}
        />
      </div>
      <PriceNote role={role} />
    </>
  );
}
