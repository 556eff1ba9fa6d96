/**
 * The prices a run is charged at: what the user typed on Connect, else the list price of the
 * model (the numbers Connect shows). Sent with every run and evaluation, so the cost so far and
 * the budget cap count real dollars, not $0 (issue #9 item 4).
 */
import { presetPrice, type Price } from '../core/config/pricing';
import { tieredPrice } from '../core/config/service-tier';
import type { ConnectionDraft } from './app-store';

export function effectivePrices(c: Pick<ConnectionDraft, 'prices' | 'target' | 'optimizer'>): {
  target?: Price;
  optimizer?: Price;
} {
  // Typed prices are the user's own; list prices follow the role's service tier (flex: half).
  const target = c.prices.target ?? tieredPrice(presetPrice(c.target.model), c.target.serviceTier);
  const optimizer = c.prices.optimizer ?? tieredPrice(presetPrice(c.optimizer.model), c.optimizer.serviceTier);
  return { ...(target ? { target } : {}), ...(optimizer ? { optimizer } : {}) };
}
