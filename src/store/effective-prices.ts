/**
 * The prices a run is charged at: what the user typed on Connect, else the list price of the
 * model (the numbers Connect shows). Sent with every run and evaluation, so the cost so far and
 * the budget cap count real dollars, not $0 (issue #9 item 4).
 */
import { presetPrice, type Price } from '../core/pricing';
import type { ConnectionDraft } from './app-store';

export function effectivePrices(c: Pick<ConnectionDraft, 'prices' | 'target' | 'optimizer'>): { target?: Price; optimizer?: Price } {
  const target = c.prices.target ?? presetPrice(c.target.model);
  const optimizer = c.prices.optimizer ?? presetPrice(c.optimizer.model);
  return { ...(target ? { target } : {}), ...(optimizer ? { optimizer } : {}) };
}
